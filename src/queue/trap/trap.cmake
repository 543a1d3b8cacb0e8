# hsalite's second-level trap handler (src/queue/trap/trap_gfx9.s) for every
# supported gfx, assembled with Debian's clang (clang-19; clang-14 for gfx90a
# when 19 is missing), its .text taken out with llvm-objcopy and embedded in
# libhsa-runtime64 as C arrays (src/queue/trap.c installs it).  A processor
# with no assembler gets no handler: its device exceptions are then not
# reported, and src/queue/trap.c says so in the log.
find_program(HSALITE_TRAP_CLANG19 NAMES clang-19)
find_program(HSALITE_TRAP_CLANG14 NAMES clang-14)
find_program(HSALITE_TRAP_OBJCOPY NAMES llvm-objcopy-19 llvm-objcopy-14 llvm-objcopy)
set(trap_src ${CMAKE_CURRENT_SOURCE_DIR}/queue/trap/trap_gfx9.s)
set(trap_inputs)
set(trap_bins)
foreach(t "gfx90a|${HSALITE_TRAP_CLANG19}|${HSALITE_TRAP_CLANG14}"
          "gfx942|${HSALITE_TRAP_CLANG19}|")
  string(REPLACE "|" ";" t "${t}")
  list(POP_FRONT t gfx)
  hsalite_gfx_compiler(cc ${t})
  if(NOT cc OR NOT HSALITE_TRAP_OBJCOPY)
    message(STATUS "hsalite: no assembler for ${gfx}: no trap handler for it")
    continue()
  endif()
  set(obj ${CMAKE_CURRENT_BINARY_DIR}/trap.${gfx}.o)
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/trap.${gfx}.bin)
  add_custom_command(OUTPUT ${bin}
    COMMAND ${cc} -x assembler -target amdgcn-amd-amdhsa -mcpu=${gfx} -c ${trap_src}
            -o ${obj}
    COMMAND ${HSALITE_TRAP_OBJCOPY} -O binary --only-section=.text ${obj} ${bin}
    DEPENDS ${trap_src}
    COMMENT "Assembling the trap handler for ${gfx}" VERBATIM)
  list(APPEND trap_inputs "${gfx}=${bin}")
  list(APPEND trap_bins ${bin})
endforeach()
set(trap_c ${CMAKE_CURRENT_BINARY_DIR}/trap_code.c)
add_custom_command(OUTPUT ${trap_c}
  COMMAND ${CMAKE_COMMAND} -DOUT=${trap_c} "-DINPUTS=${trap_inputs}"
          -DPREFIX=trap -DHEADER=queue/trap.h -DSTRUCT=hl_trap_code -DTABLE=hl_trap_codes
          -P ${CMAKE_CURRENT_SOURCE_DIR}/embed.cmake
  DEPENDS ${trap_bins} ${CMAKE_CURRENT_SOURCE_DIR}/embed.cmake
  COMMENT "Embedding the trap handler" VERBATIM)
target_sources(hsa-runtime64 PRIVATE ${trap_c})
