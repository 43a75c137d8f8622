# Writes DIST/sw.js from SW_IN (web/sw.js.in): the precache list (the files of DIST that exist)
# and a version, the first 16 hex digits of a SHA-256 over the names and SHA-256s of the page's
# code files (catalog.json is left out: it is revalidated at run time, and a price update should
# not make every visitor download the module again). Run after every link of gpusizer_web:
#   cmake -DDIST=... -DSW_IN=... -DFILES='a|b|…' -P web/sw.cmake
# FILES: the page's files in DIST, separated by '|' (web/CMakeLists.txt passes the module, the
# font and GPUSIZER_WEB_FILES); those that exist are hashed and precached.
string(REPLACE "|" ";" code_files "${FILES}")
set(precache "\"./\"")
set(digest_input "sw.js.in:")
file(SHA256 "${SW_IN}" h)
string(APPEND digest_input "${h}\n")
foreach(f IN LISTS code_files)
    if(EXISTS "${DIST}/${f}")
        file(SHA256 "${DIST}/${f}" h)
        string(APPEND digest_input "${f}:${h}\n")
        string(APPEND precache ", \"${f}\"")
    endif()
endforeach()
string(APPEND precache ", \"catalog.json\"")
string(SHA256 digest "${digest_input}")
string(SUBSTRING "${digest}" 0 16 GPUSIZER_SW_VERSION)
set(GPUSIZER_SW_PRECACHE "[${precache}]")
configure_file("${SW_IN}" "${DIST}/sw.js" @ONLY NEWLINE_STYLE UNIX)
message(STATUS "gpusizer_web: sw.js cache gpusizer-${GPUSIZER_SW_VERSION}")
