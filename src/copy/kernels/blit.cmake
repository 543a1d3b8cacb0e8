# The blit kernels (src/copy/kernels/blit.cl) for every supported gfx,
# compiled with Debian's clang and embedded in libhsa-runtime64 as C arrays:
#   gfx90a  clang-14 (code object v4), else clang-19
#   gfx942  clang-19 (code object v5)
# A processor whose compiler is missing gets no blit kernels: its copies
# that need the GPU then fail with a logged reason.
find_program(HSALITE_BLIT_CLANG14 NAMES clang-14)
find_program(HSALITE_BLIT_CLANG19 NAMES clang-19)
set(blit_src ${CMAKE_CURRENT_SOURCE_DIR}/copy/kernels/blit.cl)
set(blit_inputs)
set(blit_cos)
foreach(t "gfx90a|${HSALITE_BLIT_CLANG14}|${HSALITE_BLIT_CLANG19}"
          "gfx942|${HSALITE_BLIT_CLANG19}|")
  string(REPLACE "|" ";" t "${t}")
  list(POP_FRONT t gfx)
  hsalite_gfx_compiler(cc ${t})
  if(NOT cc)
    message(STATUS "hsalite: no clang for ${gfx}: no blit kernels for it")
    continue()
  endif()
  set(co ${CMAKE_CURRENT_BINARY_DIR}/blit.${gfx}.co)
  add_custom_command(OUTPUT ${co}
    COMMAND ${cc} -target amdgcn-amd-amdhsa -mcpu=${gfx} -x cl -cl-std=CL1.2 -O2
            -nogpulib ${blit_src} -o ${co}
    DEPENDS ${blit_src}
    COMMENT "Compiling the blit kernels for ${gfx}" VERBATIM)
  list(APPEND blit_inputs "${gfx}=${co}")
  list(APPEND blit_cos ${co})
endforeach()
set(blit_c ${CMAKE_CURRENT_BINARY_DIR}/blit_code.c)
add_custom_command(OUTPUT ${blit_c}
  COMMAND ${CMAKE_COMMAND} -DOUT=${blit_c} "-DINPUTS=${blit_inputs}"
          -DPREFIX=blit -DHEADER=copy/copy_priv.h -DSTRUCT=hl_blit_code -DTABLE=hl_blit_codes
          -P ${CMAKE_CURRENT_SOURCE_DIR}/embed.cmake
  DEPENDS ${blit_cos} ${CMAKE_CURRENT_SOURCE_DIR}/embed.cmake
  COMMENT "Embedding the blit kernels" VERBATIM)
target_sources(hsa-runtime64 PRIVATE ${blit_c})
