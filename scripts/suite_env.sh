# The environment the test suite runs in, sourced by scripts/test.sh and scripts/suite_cpu.sh
# (docs/running.md, "The suite's environment"). On a machine where the kernel's work is dear:
# malloc's large blocks in transparent huge pages, one fault where there were 512 (a first touch
# of a 4 KiB page costs 14 us on this virtual machine); and hwloc, which every Open MPI and MPICH
# process and launcher runs, not reading the PCI devices' configuration (40 ms of CPU per process
# here; the jobs of a test never leave one host). A user's own settings win.
export GLIBC_TUNABLES="glibc.malloc.hugetlb=1${GLIBC_TUNABLES:+:$GLIBC_TUNABLES}"
export HWLOC_COMPONENTS="${HWLOC_COMPONENTS:--pci,-linuxio}"
