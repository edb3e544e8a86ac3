# The Debian libraries of the schema layer, as imported targets: mcpxx::pcre2 (libpcre2-dev,
# `pattern` and the `regex` format) and mcpxx::idn2 (libidn2-dev, the idn-* formats). Included by
# the build and by the installed mcpxxConfig.cmake (a static libmcpxx needs them at link time).
#
# Linked by name (-lpcre2-8, -lidn2 -lunistring): a program links the shared libraries, one
# linked with -static (cmake/static_programs.cmake) the archives. libidn2.a needs libunistring
# (libunistring-dev; `pkg-config --static libidn2`); libidn2.so loads it anyway. docs/design.md:
# why this keeps libidn2's LGPL satisfied.
function(mcpxx_text_library target package header library)
  if(TARGET ${target})
    return()
  endif()
  string(MAKE_C_IDENTIFIER "MCPXX_${library}" var)
  find_path(${var}_INCLUDE_DIR ${header})
  set(missing "")
  if(NOT ${var}_INCLUDE_DIR)
    set(missing " ${header}")
  endif()
  foreach(lib IN ITEMS ${library} ${ARGN})
    string(MAKE_C_IDENTIFIER "MCPXX_LIB_${lib}" libvar)
    find_library(${libvar} ${lib})
    if(NOT ${libvar})
      string(APPEND missing " lib${lib}")
    endif()
  endforeach()
  if(missing)
    message(FATAL_ERROR "mcpxx needs the Debian package(s) ${package}; not found:${missing}. "
      "apt-get install ${package} (scripts/install-deps installs everything)")
  endif()
  add_library(${target} INTERFACE IMPORTED)
  set_target_properties(${target} PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${${var}_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${library};${ARGN}")
endfunction()

mcpxx_text_library(mcpxx::pcre2 libpcre2-dev pcre2.h pcre2-8)
mcpxx_text_library(mcpxx::idn2 "libidn2-dev libunistring-dev" idn2.h idn2 unistring)
