# Sanitizer and fuzzing builds, after ccache's cmake/StandardSettings.cmake: a list of
# sanitizers chosen at configure time, added to compile and link of every target.
#
#   -DSBX_SANITIZE=address,undefined   AddressSanitizer + UndefinedBehaviorSanitizer
#   -DSBX_SANITIZE=thread              ThreadSanitizer
#   -DSBX_FUZZ=ON                      libFuzzer harnesses in tests/fuzz (clang only; implies
#                                      address,undefined when SBX_SANITIZE is empty)
#
# Unlike ccache (an interface target linked by each of its own targets), the flags are added
# per directory, before any target exists: the host, the tests, the test fixtures and every
# plugin .so are then instrumented alike. An instrumented plugin needs the sanitizer runtime
# in the process that loads it, which an instrumented host or test binary has; an
# uninstrumented .so (a third-party plugin built by a test) loads into an instrumented host
# as it does into any other. tools/sanitize and tools/fuzz configure these builds.
set(SBX_SANITIZE "" CACHE STRING
    "Sanitizers for every target, comma-separated: address,undefined or thread (empty: none)")
option(SBX_FUZZ "Build the libFuzzer harnesses in tests/fuzz (clang only)" OFF)

if(SBX_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SBX_FUZZ=ON needs clang (libFuzzer): configure with "
                        "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
  endif()
  if(SBX_SANITIZE STREQUAL "")
    set(SBX_SANITIZE address,undefined)
  endif()
endif()

set(SBX_SANITIZER_FLAGS "")
if(NOT SBX_SANITIZE STREQUAL "")
  string(REPLACE "," ";" _sbx_sanitizers "${SBX_SANITIZE}")
  foreach(_sbx_sanitizer IN LISTS _sbx_sanitizers)
    if(NOT _sbx_sanitizer MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "SBX_SANITIZE: unknown sanitizer '${_sbx_sanitizer}'; write "
                          "address,undefined or thread")
    endif()
  endforeach()
  if("thread" IN_LIST _sbx_sanitizers AND "address" IN_LIST _sbx_sanitizers)
    message(FATAL_ERROR "SBX_SANITIZE: thread and address cannot be combined; configure two "
                        "build directories (tools/sanitize asan, tools/sanitize tsan)")
  endif()
  # Frame pointers make the reports' stacks whole (and LeakSanitizer's fast unwinder work).
  list(APPEND SBX_SANITIZER_FLAGS -fsanitize=${SBX_SANITIZE} -fno-omit-frame-pointer)
  if("undefined" IN_LIST _sbx_sanitizers)
    # A finding aborts the process, so the test that hits it fails. GCC leaves
    # float-cast-overflow out of `undefined` (clang has it): a JSON number too large for
    # an int is exactly what plugin answers and presets can hold.
    list(APPEND SBX_SANITIZER_FLAGS -fno-sanitize-recover=all -fsanitize=float-cast-overflow)
  endif()
  add_compile_options(${SBX_SANITIZER_FLAGS})
  add_link_options(${SBX_SANITIZER_FLAGS})
  message(STATUS "sanitizers: ${SBX_SANITIZER_FLAGS}")
endif()

if(SBX_FUZZ)
  # Coverage feedback for libFuzzer in every library the harnesses link; only the harnesses
  # link libFuzzer itself (-fsanitize=fuzzer, tests/fuzz).
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# Some targets need more than the flags, fixed once every target exists:
# - a statically linked program (the qemu guest agent, the test target copied into
#   containers and guests) cannot take the sanitizer runtimes, which are shared libraries
#   here: it gets the flags back out;
# - with clang, a plugin .so is linked without the runtime (the executable that loads it
#   carries it and exports its symbols), so its __asan_*/__ubsan_* references are undefined
#   at link time: `-z undefs` after the plugin's `-z defs` lets them be (GCC links the
#   shared runtime into the .so, which needs nothing).
# - under ThreadSanitizer, the `local` executor stays uninstrumented: its run init is a
#   raw clone(CLONE_VM) child on the host's memory, which TSan's runtime does not support
#   (instrumented, the init dies and runs end XX "the init was killed"). The host's threads
#   and everything else are still checked; calls into one plugin instance are serialized.
set(SBX_TSAN_UNINSTRUMENTED sbx_plugin_local)
function(sbx_adjust_sanitized_targets directory)
  get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(link_options ${target} LINK_OPTIONS)
    set(static_program FALSE)
    if(link_options AND "-static" IN_LIST link_options)
      set(static_program TRUE)
    endif()
    if(static_program OR
       (SBX_SANITIZE STREQUAL "thread" AND target IN_LIST SBX_TSAN_UNINSTRUMENTED))
      # An uninstrumented .so keeps the sanitizer at link time: the static support library
      # it links (plugins/support) is instrumented and needs the runtime's symbols.
      set(properties COMPILE_OPTIONS)
      if(static_program)
        list(APPEND properties LINK_OPTIONS)
      endif()
      foreach(property IN LISTS properties)
        get_target_property(options ${target} ${property})
        if(options)
          list(REMOVE_ITEM options ${SBX_SANITIZER_FLAGS} -fsanitize=fuzzer-no-link)
          set_target_properties(${target} PROPERTIES ${property} "${options}")
        endif()
      endforeach()
    elseif(type MATCHES "^(MODULE|SHARED)_LIBRARY$" AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      set_property(TARGET ${target} APPEND PROPERTY LINK_OPTIONS -Wl,-z,undefs)
    endif()
  endforeach()
  get_property(subdirectories DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    sbx_adjust_sanitized_targets(${subdirectory})
  endforeach()
endfunction()
