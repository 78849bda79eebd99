# Warnings for our own targets only; third-party headers are SYSTEM includes.
function(causegate_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
    -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Wunused -Woverloaded-virtual
    -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
  if(CAUSEGATE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
