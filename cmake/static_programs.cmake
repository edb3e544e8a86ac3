# mcpxx_static_program(TARGET): link an example or test program fully static when
# MCPXX_STATIC_EXAMPLES is on (the default outside sanitizer and fuzz builds), keeping only the
# sections it uses. A static echo_server idles in 3.2 MiB after initialize, 4.7 MiB with glibc
# linked dynamically (libc.so's pages count in its RSS), and starts without the dynamic loader.
#
# Static glibc makes ld warn that getaddrinfo, gethostbyname and dlopen need the linking glibc's
# shared libraries at run time; these programs run where they were linked, so the link goes
# through cmake/quiet_static_link.sh, which drops exactly that warning (its comment says why it
# is safe) and nothing else.
function(mcpxx_static_program target)
  if(NOT MCPXX_STATIC_EXAMPLES)
    return()
  endif()
  target_link_options(${target} PRIVATE -static -Wl,--gc-sections)
  set_target_properties(${target} PROPERTIES
    CXX_LINKER_LAUNCHER ${PROJECT_SOURCE_DIR}/cmake/quiet_static_link.sh)
endfunction()
