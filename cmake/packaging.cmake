# Installing and packaging gemini (docs/sweeps.md, "Installing"):
#   cmake --install build --prefix P   -> P/bin/gemini, P/share/gemini/{configs,scripts},
#                                         P/lib/python3/dist-packages/gemini (docs/python.md)
#   (cd build && cpack -G DEB)         -> gemini_<version>_<arch>.deb (prefix /usr)
# gemini finds its data folder at <folder of the executable>/../share/gemini
# (cli/install_paths.h); the build copies the same files to
# build/share/gemini, so build/cli/gemini finds them too.
include(GNUInstallDirs)

set(GEMINI_DATA_FILES
  configs/README.md
  configs/set-polar.json
  configs/set-polar-ddr4.json
  configs/set-polar-lpddr5.json
  configs/set-polar-hbm2.json
  configs/set-polar-unicast.json
  configs/gemini-hpca24.json
  configs/gemini-hpca24-7nm.json
  configs/gemini-hpca24-gddr6.json
  configs/sweeps/README.md
  configs/sweeps/chiplets.json
  configs/sweeps/gemini-study.json
  configs/sweeps/example.json
  configs/sweeps/corpus-dram-multicast.json
  configs/sweeps/corpus-dram-models.json
  configs/sweeps/functional-seeds.json
)
set(GEMINI_SCRIPT_FILES
  scripts/plot_sweep.py
  scripts/plot_report.py
  scripts/plot_chiplets.py
  scripts/plot_study.py
  scripts/slurm_local.sh
)

set(_gemini_data_outputs)
foreach(f IN LISTS GEMINI_DATA_FILES GEMINI_SCRIPT_FILES)
  set(_out ${CMAKE_BINARY_DIR}/share/gemini/${f})
  add_custom_command(OUTPUT ${_out}
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${PROJECT_SOURCE_DIR}/${f} ${_out}
    DEPENDS ${PROJECT_SOURCE_DIR}/${f}
    COMMENT "" VERBATIM)
  list(APPEND _gemini_data_outputs ${_out})
endforeach()
add_custom_target(gemini_data ALL DEPENDS ${_gemini_data_outputs})
add_dependencies(gemini gemini_data)

install(TARGETS gemini RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(f IN LISTS GEMINI_DATA_FILES)
  get_filename_component(_dir ${f} DIRECTORY)
  install(FILES ${f} DESTINATION ${CMAKE_INSTALL_DATADIR}/gemini/${_dir})
endforeach()
install(PROGRAMS ${GEMINI_SCRIPT_FILES} DESTINATION ${CMAKE_INSTALL_DATADIR}/gemini/scripts)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")

set(CPACK_PACKAGE_NAME gemini)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "gemini developers <gemini@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Validate, assemble and simulate Gemini NPU schedules; design-space sweeps")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The shared libraries gemini links (SystemC, Boost.JSON, zlib, ...) become
# Depends through dpkg-shlibdeps; plots need matplotlib, clusters Slurm.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-matplotlib")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "slurm-client")
if(GEMINI_HAVE_PYTHON)
  # The Python package (python/CMakeLists.txt installs it in
  # /usr/lib/python3/dist-packages): an extension built for this python3's
  # minor version; numpy for gemini.reference, pandas for DataFrames.
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}~), python3 (<< ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}.99)")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-matplotlib, python3-numpy")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "slurm-client, python3-pandas")
endif()
include(CPack)
