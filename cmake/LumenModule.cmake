# lumen_module(NAME DEPS ...): a static library lumen_NAME from src/NAME/*.cpp (an INTERFACE library while empty).
# Files named *_avx2.cpp / *_avx512.cpp get the matching ISA flags: they hold the run-time-dispatched kernels
# (see include/lumen/core/simd.hpp); everything else is built for the baseline x86-64.
set(LUMEN_AVX2_FLAGS -mavx2 -mfma -mf16c -mpopcnt -mbmi -ffp-contract=off -Wno-uninitialized -Wno-maybe-uninitialized)
set(LUMEN_AVX512_FLAGS -mavx512f -mavx512bw -mavx512vl -mavx512dq -mpopcnt -mbmi -mavx2 -mfma -mf16c -ffp-contract=off -Wno-uninitialized -Wno-maybe-uninitialized)

function(lumen_module name)
  cmake_parse_arguments(M "" "" "DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/src/${name}/*.cpp")
  if(srcs)
    add_library(lumen_${name} STATIC ${srcs})
    target_include_directories(lumen_${name} PUBLIC "${CMAKE_SOURCE_DIR}/include" PRIVATE "${CMAKE_SOURCE_DIR}/src")
    target_link_libraries(lumen_${name} PUBLIC ${M_DEPS})
    set_target_properties(lumen_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    if(LUMEN_FUZZ)
      target_compile_options(lumen_${name} PRIVATE -fsanitize=fuzzer-no-link)  # what the fuzzers' coverage sees
    endif()
    foreach(f ${srcs})
      # A dispatched kernel file is its own translation unit (its ISA flags, and the generic variant's names
      # mirror the dispatcher's).
      if(f MATCHES "_(generic|avx2|avx512)\\.cpp$")
        set_source_files_properties(${f} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
      endif()
      if(f MATCHES "_avx512\\.cpp$")
        set_source_files_properties(${f} PROPERTIES COMPILE_OPTIONS "${LUMEN_AVX512_FLAGS}")
      elseif(f MATCHES "_avx2\\.cpp$")
        set_source_files_properties(${f} PROPERTIES COMPILE_OPTIONS "${LUMEN_AVX2_FLAGS}")
      endif()
    endforeach()
  else()
    add_library(lumen_${name} INTERFACE)
    target_include_directories(lumen_${name} INTERFACE "${CMAKE_SOURCE_DIR}/include")
    target_link_libraries(lumen_${name} INTERFACE ${M_DEPS})
  endif()
endfunction()

# lumen_test(MODULE): one GoogleTest executable test_MODULE from tests/MODULE/*.cpp, registered with ctest.
function(lumen_test name)
  cmake_parse_arguments(T "" "" "DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/tests/${name}/*.cpp")
  if(NOT srcs)
    return()
  endif()
  if(NOT name STREQUAL "cli")  # the library's tests find lumen's data in the build tree, as the CLI does
    list(APPEND srcs "${CMAKE_SOURCE_DIR}/tests/support/build_tree_data.cpp")
  endif()
  add_executable(test_${name} ${srcs})
  target_include_directories(test_${name} PRIVATE "${CMAKE_SOURCE_DIR}/tests")
  if(LUMEN_SANITIZE)
    # The test files themselves at -O0 under the sanitizers (the library they test stays at the build's -O1): a
    # test file's ASan compile is mostly code generation for gtest's bodies, and -O0 halves it, while the tests'
    # run time is the library's.
    target_compile_options(test_${name} PRIVATE -O0)
  endif()
  if(NOT name STREQUAL "cli")
    target_link_libraries(test_${name} PRIVATE lumen_${name})
  endif()
  target_link_libraries(test_${name} PRIVATE ${T_DEPS} GTest::gtest GTest::gtest_main GTest::gmock)
  target_compile_definitions(test_${name} PRIVATE
    LUMEN_DATA_DIR="${LUMEN_DATA_DIR}"
    LUMEN_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
    LUMEN_BINARY_DIR="${CMAKE_BINARY_DIR}")
  gtest_discover_tests(test_${name} DISCOVERY_TIMEOUT 120
    PROPERTIES ENVIRONMENT "LUMEN_DATA_DIR=${LUMEN_DATA_DIR}"
    LABELS ${name})
endfunction()
