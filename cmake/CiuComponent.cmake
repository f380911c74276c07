# Layering enforced by the compiler.
#
# Every library of the project is included by path from the source root ("core/model/zone.h"), but the source
# root itself is on no include path. Instead each library gets an include root of its own in the build tree,
# holding symbolic links to exactly the headers listed in its sources, and passes that root on to whoever links
# it (PUBLIC). A file can therefore include a header only if its target links, directly or through the chain, the
# library that owns the header: an include against the arrows (docs/ARCHITECTURE.md) fails to compile.

# ciu_expose_headers(TARGET): call after every source of TARGET is listed.
function(ciu_expose_headers target)
    get_target_property(sources ${target} SOURCES)
    get_target_property(source_dir ${target} SOURCE_DIR)
    set(root "${CMAKE_BINARY_DIR}/include/${target}")
    file(REMOVE_RECURSE "${root}")
    set(count 0)
    foreach(source IN LISTS sources)
        if(NOT source MATCHES "\\.h$")
            continue()
        endif()
        if(IS_ABSOLUTE "${source}")
            set(path "${source}")
        else()
            set(path "${source_dir}/${source}")
        endif()
        file(RELATIVE_PATH relative "${CMAKE_SOURCE_DIR}" "${path}")
        if(relative MATCHES "^\\.\\.")
            continue() # generated headers live in the build tree and are found there
        endif()
        get_filename_component(folder "${root}/${relative}" DIRECTORY)
        file(MAKE_DIRECTORY "${folder}")
        file(CREATE_LINK "${path}" "${root}/${relative}" SYMBOLIC)
        math(EXPR count "${count} + 1")
    endforeach()
    if(count EQUAL 0)
        message(FATAL_ERROR "ciu_expose_headers(${target}): the target lists no header")
    endif()
    target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${root}>")
endfunction()
