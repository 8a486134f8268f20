# Lays out splitcc's build-tree prefix (cmake -P, run by the splitcc-stage
# target): the layout of an install, made of links to the build tree, so that
# build/compiler/splitcc/stage/bin/splitcc works without installing.
#   -DSTAGE=dir -DINCLUDE=src/include -DPC_DIR=build/pkgconfig
#   -DTRANSLATE=exe -DDRIVER=script -DLAUNCHER=splitc-run -DLIBEXEC=libexec
#   -DLIBS=name=file;... (libsplitc-smp.a=/path/...)  -DMODULES=splitc-smp;...
foreach(dir bin lib/pkgconfig ${LIBEXEC}/splitcc)
  file(MAKE_DIRECTORY "${STAGE}/${dir}")
endforeach()
file(REMOVE "${STAGE}/include" "${STAGE}/${LIBEXEC}/splitcc/splitcc-translate" "${STAGE}/bin/splitc-run")
file(CREATE_LINK "${INCLUDE}" "${STAGE}/include" SYMBOLIC)
file(CREATE_LINK "${TRANSLATE}" "${STAGE}/${LIBEXEC}/splitcc/splitcc-translate" SYMBOLIC)
file(CREATE_LINK "${LAUNCHER}" "${STAGE}/bin/splitc-run" SYMBOLIC)
file(COPY "${DRIVER}" DESTINATION "${STAGE}/bin")  # a copy: it finds its prefix from where it is
foreach(item IN LISTS LIBS)
  string(REPLACE "=" ";" pair "${item}")
  list(GET pair 0 name)
  list(GET pair 1 file)
  file(REMOVE "${STAGE}/lib/${name}")
  file(CREATE_LINK "${file}" "${STAGE}/lib/${name}" SYMBOLIC)
endforeach()
foreach(module IN LISTS MODULES)
  if(EXISTS "${PC_DIR}/${module}.pc.in")
    file(READ "${PC_DIR}/${module}.pc.in" pc)
    string(REPLACE "@SPLITC_PC_PREFIX@" "${STAGE}" pc "${pc}")
    file(WRITE "${STAGE}/lib/pkgconfig/${module}.pc" "${pc}")
  endif()
endforeach()
