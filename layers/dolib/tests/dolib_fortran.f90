! DOLIB's Fortran interface as the seed shows it: external subroutines and integer functions,
! 1-based indices, NUL-terminated names and types (and plain Fortran strings). Checked against
! a sequential array; processor 0 prints "PASS dolib_fortran".
program dolib_fortran
  implicit none
  integer :: myid, nproc, ia, ib, n, i, k, req, old, ierr
  integer, parameter :: gsize = 500
  integer :: list(gsize), ibuf(gsize), ival(gsize)
  double precision :: dbuf(gsize), dx(gsize)
  integer :: dobdgather, dobigather, dodagather, dosetchsize
  logical :: doisavail
  external :: dobdgather, dobigather, dodagather, dosetchsize, doisavail
  character(len=32) :: name, ctype

  call dostart(myid, nproc)
  call doinit(myid, nproc)
  ierr = 0

  name = 'X(gsize)' // char(0)
  ctype = 'real*8' // char(0)
  call dodeclare(ia, name, gsize, ctype, 6, 2)
  call dodeclare(ib, 'IV', gsize, 'Integer', 5, 3)

  ! Each processor scatters the indices i with mod(i, nproc) = myid; values 2i + 0.5, 7i.
  n = 0
  do i = 1, gsize
    if (mod(i, nproc) == myid) then
      n = n + 1
      list(n) = i
      dx(n) = 2 * i + 0.5d0
      ival(n) = 7 * i
    end if
  end do
  call dodscatter(ia, n, list, dx)
  call doiscatter(ib, n, list, ival)
  call dogsync()

  ! Gathers: a reversed list with duplicates, a contiguous range, an asynchronous list.
  do k = 1, gsize
    list(k) = gsize + 1 - k
  end do
  list(gsize) = 1
  call dodgather(ia, gsize, list, dbuf)
  call doigather(ib, gsize, list, ibuf)
  do k = 1, gsize
    if (dbuf(k) /= 2 * list(k) + 0.5d0) ierr = ierr + 1
    if (ibuf(k) /= 7 * list(k)) ierr = ierr + 1
  end do
  req = dobdgather(ia, 100, 401, dbuf)
  call dowait(req)
  do k = 1, 100
    if (dbuf(k) /= 2 * (400 + k) + 0.5d0) ierr = ierr + 1
  end do
  req = dodagather(ia, gsize, list, dbuf)
  call docheck()
  do while (.not. doisavail(req))
    call docheck()
  end do
  do k = 1, gsize
    if (dbuf(k) /= 2 * list(k) + 0.5d0) ierr = ierr + 1
  end do
  req = dobigather(ib, 10, 1, ibuf)
  call dowait(req)
  do k = 1, 10
    if (ibuf(k) /= 7 * k) ierr = ierr + 1
  end do

  ! axpby from every processor on elements 1..20: x = 1, alpha = 1, beta = 1.
  call dogsync()
  do k = 1, 20
    list(k) = k
    dx(k) = 1.0d0
    ival(k) = 1
  end do
  call dodaxpby(ia, 20, list, dx, 1.0d0, 1.0d0)
  call doiaxpby(ib, 20, list, ival, 1, 1)
  call dobdaxpby(ia, 20, 21, dx, 2.0d0, 1.0d0)
  call dobiaxpby(ib, 20, 21, ival, 2, 1)
  call dogsync()
  call dodgather(ia, 40, list, dbuf)
  do k = 1, 40
    list(k) = k
  end do
  call dodgather(ia, 40, list, dbuf)
  call doigather(ib, 40, list, ibuf)
  do k = 1, 20
    if (dbuf(k) /= 2 * k + 0.5d0 + nproc) ierr = ierr + 1
    if (ibuf(k) /= 7 * k + nproc) ierr = ierr + 1
    if (dbuf(20 + k) /= 2 * (20 + k) + 0.5d0 + 2 * nproc) ierr = ierr + 1
    if (ibuf(20 + k) /= 7 * (20 + k) + 2 * nproc) ierr = ierr + 1
  end do

  ! Caching of the read-only array, then purged.
  call dogsync()
  old = dosetchsize(16)
  if (old /= 128) ierr = ierr + 1
  call doenable(ia)
  do k = 1, gsize
    list(k) = mod(k * 37, gsize) + 1
  end do
  call dodgather(ia, gsize, list, dbuf)
  call dodgather(ia, gsize, list, dbuf)
  call dodisable(ia)
  do k = 1, gsize
    i = list(k)
    if (i > 40 .and. dbuf(k) /= 2 * i + 0.5d0) ierr = ierr + 1
  end do
  ! Contiguous scatter (the appendix's dobdscatter) and a 1-based contiguous gather.
  call dogsync()
  if (myid == 0) then
    do k = 1, 30
      dx(k) = -k
    end do
    call dobdscatter(ia, 30, 471, dx)
  end if
  call dogsync()
  req = dobdgather(ia, 30, 471, dbuf)
  call dowait(req)
  do k = 1, 30
    if (dbuf(k) /= -k) ierr = ierr + 1
  end do

  call dodestroy(ia)
  call dodestroy(ib)
  if (ierr /= 0) then
    print '(a, i0, a, i0, a)', 'processor ', myid, ': ', ierr, ' wrong values'
    error stop 1
  end if
  call dogsync()
  call dostop()
  if (myid == 0) print '(a)', 'PASS dolib_fortran'
end program dolib_fortran
