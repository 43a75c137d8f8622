# gpusizer_ui_fonts(DIR OUTPUTS_VAR): build-time subsets of the UI fonts into DIR, for the page
# (downloaded) and the desktop app (embedded). Sets OUTPUTS_VAR to the files, or to nothing when
# fontTools or the fonts are missing (then the UI uses ImGui's built-in ProggyClean).
#   DIR/ui.ttf   DejaVu Sans (fonts-dejavu-core), the code points of web/fonts.txt
#                (= k_ui_glyph_ranges in shell/style.cpp).
#   DIR/ui-bold.ttf  DejaVu Sans Bold (the same package), the same code points: headings and the
#                answer card's figures.
#   DIR/cjk.ttf  Droid Sans Fallback (fonts-droid-fallback), exactly the other characters of the
#                string literals in shell/ and core/src/ (every folder) and of the catalog; scripts/ui_glyphs.py
#                fails the build naming any character that neither font has.
# fontTools is Debian's python3-fonttools, which ships no pyftsubset script: `python3 -m
# fontTools.subset`. Every subset drops hinting and the tables ImGui's stb_truetype never reads
# (GPUSIZER_FONT_DROP: PostScript names, OS/2 metrics, layout, vertical metrics, DejaVu's MATH,
# FontForge's time stamp);
# `name` stays (the fonts' copyright notices). −1.8 kB gzip for the three files.
set(GPUSIZER_UI_FONT_SOURCE "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
set(GPUSIZER_BOLD_FONT_SOURCE "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
set(GPUSIZER_CJK_FONT_SOURCE "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
set(GPUSIZER_FONTS_CMAKE "${CMAKE_CURRENT_LIST_FILE}")  # the rules below depend on this file
set(GPUSIZER_FONT_DROP "--drop-tables+=post,OS/2,gasp,GDEF,GPOS,GSUB,MATH,vmtx,vhea,FFTM")
find_program(GPUSIZER_FONT_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(GPUSIZER_FONT_PYTHON AND EXISTS "${GPUSIZER_UI_FONT_SOURCE}" AND EXISTS "${GPUSIZER_BOLD_FONT_SOURCE}"
   AND EXISTS "${GPUSIZER_CJK_FONT_SOURCE}")
    execute_process(COMMAND "${GPUSIZER_FONT_PYTHON}" -c "import fontTools.subset"
                    RESULT_VARIABLE GPUSIZER_FONTTOOLS_MISSING OUTPUT_QUIET ERROR_QUIET)
endif()

function(gpusizer_ui_fonts dir outputs_var)
    if(NOT GPUSIZER_FONT_PYTHON OR NOT EXISTS "${GPUSIZER_UI_FONT_SOURCE}" OR NOT EXISTS "${GPUSIZER_BOLD_FONT_SOURCE}"
       OR NOT EXISTS "${GPUSIZER_CJK_FONT_SOURCE}" OR GPUSIZER_FONTTOOLS_MISSING)
        message(STATUS "gpusizer: no fontTools, DejaVu Sans (Bold) or Droid Sans Fallback; the UI uses ProggyClean (run scripts/setup)")
        set(${outputs_var} "" PARENT_SCOPE)
        return()
    endif()
    set(ranges "${PROJECT_SOURCE_DIR}/web/fonts.txt")
    file(STRINGS "${ranges}" glyphs REGEX "^U\\+")
    string(JOIN "," glyphs ${glyphs})
    add_custom_command(OUTPUT "${dir}/ui.ttf"
        COMMAND ${CMAKE_COMMAND} -E make_directory "${dir}"
        COMMAND "${GPUSIZER_FONT_PYTHON}" -m fontTools.subset "${GPUSIZER_UI_FONT_SOURCE}"
                "--unicodes=${glyphs}" --layout-features= --no-hinting --desubroutinize
                "${GPUSIZER_FONT_DROP}" "--output-file=${dir}/ui.ttf"
        DEPENDS "${ranges}" "${GPUSIZER_UI_FONT_SOURCE}" "${GPUSIZER_FONTS_CMAKE}"
        COMMENT "Subsetting DejaVu Sans for the UI" VERBATIM)
    add_custom_command(OUTPUT "${dir}/ui-bold.ttf"
        COMMAND ${CMAKE_COMMAND} -E make_directory "${dir}"
        COMMAND "${GPUSIZER_FONT_PYTHON}" -m fontTools.subset "${GPUSIZER_BOLD_FONT_SOURCE}"
                "--unicodes=${glyphs}" --layout-features= --no-hinting --desubroutinize
                "${GPUSIZER_FONT_DROP}" "--output-file=${dir}/ui-bold.ttf"
        DEPENDS "${ranges}" "${GPUSIZER_BOLD_FONT_SOURCE}" "${GPUSIZER_FONTS_CMAKE}"
        COMMENT "Subsetting DejaVu Sans Bold for headings and figures" VERBATIM)
    file(GLOB texts CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/shell/*.cpp" "${PROJECT_SOURCE_DIR}/shell/*.hpp")
    file(GLOB_RECURSE core_texts CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/core/src/*.cpp")
    list(APPEND texts ${core_texts})
    set(catalog "${PROJECT_SOURCE_DIR}/assets/catalog.json")
    add_custom_command(OUTPUT "${dir}/cjk.ttf"
        COMMAND ${CMAKE_COMMAND} -E make_directory "${dir}"
        COMMAND "${GPUSIZER_FONT_PYTHON}" "${PROJECT_SOURCE_DIR}/scripts/ui_glyphs.py" --ranges "${ranges}"
                --latin "${GPUSIZER_UI_FONT_SOURCE}" --cjk "${GPUSIZER_CJK_FONT_SOURCE}" --catalog "${catalog}"
                --out "${CMAKE_CURRENT_BINARY_DIR}/cjk_chars.txt" ${texts}
        COMMAND "${GPUSIZER_FONT_PYTHON}" -m fontTools.subset "${GPUSIZER_CJK_FONT_SOURCE}"
                "--text-file=${CMAKE_CURRENT_BINARY_DIR}/cjk_chars.txt" --layout-features= --no-hinting --desubroutinize
                "${GPUSIZER_FONT_DROP}" "--output-file=${dir}/cjk.ttf"
        DEPENDS "${PROJECT_SOURCE_DIR}/scripts/ui_glyphs.py" "${GPUSIZER_FONTS_CMAKE}" "${ranges}" "${GPUSIZER_CJK_FONT_SOURCE}" "${catalog}" ${texts}
        COMMENT "Subsetting Droid Sans Fallback to the Chinese characters of the UI, core and catalog" VERBATIM)
    set(${outputs_var} "${dir}/ui.ttf" "${dir}/ui-bold.ttf" "${dir}/cjk.ttf" PARENT_SCOPE)
endfunction()
