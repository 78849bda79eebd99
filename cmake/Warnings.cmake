# Warnings for our own targets only; third-party headers are SYSTEM includes.
function(causegate_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
    -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Wunused -Woverloaded-virtual
    -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
  if(CAUSEGATE_WERROR)
    # GCC 12 at -O3 (the Release default) warns -Wrestrict inside
    # std::string's own inlined memcpy for plain concatenations (GCC bug
    # 105329, a false positive): kept visible, not fatal.
    target_compile_options(${target} PRIVATE -Werror $<$<CXX_COMPILER_ID:GNU>:-Wno-error=restrict>)
  endif()
endfunction()
