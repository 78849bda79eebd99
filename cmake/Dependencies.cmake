# Every dependency comes from Debian packages (see scripts/install-deps).
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
pkg_check_modules(UTF8PROC REQUIRED IMPORTED_TARGET libutf8proc)
if(CAUSEGATE_PORTABLE)
  # The dist tarball links these two statically (CMakeLists.txt says why).
  find_library(RE2_STATIC NAMES libre2.a REQUIRED)
  find_library(UTF8PROC_STATIC NAMES libutf8proc.a REQUIRED)
  set_target_properties(PkgConfig::RE2 PROPERTIES INTERFACE_LINK_LIBRARIES "${RE2_STATIC};Threads::Threads")
  set_target_properties(PkgConfig::UTF8PROC PROPERTIES INTERFACE_LINK_LIBRARIES "${UTF8PROC_STATIC}")
endif()
# ICU: the confusables skeleton (USpoofChecker) behind look-alike letters,
# for the evidence library only (evidence/confusables.cc, which loads
# libicui18n at run time, so only the headers are needed here).
pkg_check_modules(ICU REQUIRED IMPORTED_TARGET icu-uc icu-i18n)
# md4c via pkg-config: its CMake config also demands libmd4c-html, which we do not use.
pkg_check_modules(MD4C REQUIRED IMPORTED_TARGET md4c)
find_package(nlohmann_json 3.10 CONFIG REQUIRED)
find_package(spdlog CONFIG REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
# simdjson: the readers that parse every line of a file (evidence/simd_json.h).
find_package(simdjson CONFIG REQUIRED)
