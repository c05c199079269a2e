"""What a C compiler needs to build a module file against the sandbox at run time."""

def _runfiles_dir(path):
    # Exec paths of generated include dirs ("bazel-out/k8-fastbuild/bin/core/_virtual_includes/
    # linux") are found in runfiles without their output-tree prefix.
    parts = path.split("/")
    if len(parts) >= 3 and parts[0] == "bazel-out" and parts[2] in ("bin", "genfiles"):
        parts = parts[3:]
    return "/".join(parts) if parts and parts != ["."] else "."

def _sandbox_cc_impl(ctx):
    cc = ctx.attr.lib[CcInfo]
    lines = ["cflag " + f for f in ctx.fragments.cpp.copts + ctx.fragments.cpp.conlyopts]
    comp = cc.compilation_context
    dirs = {}
    for d in comp.quote_includes.to_list() + comp.includes.to_list() + comp.system_includes.to_list():
        dirs[_runfiles_dir(d)] = True
    lines += ["include " + d for d in dirs.keys()]
    archives = []
    for li in cc.linking_context.linker_inputs.to_list():
        for lib in li.libraries:
            a = lib.static_library or lib.pic_static_library
            if a:
                archives.append(a)
                lines.append("archive " + a.short_path)
        lines += ["linkflag " + f for f in li.user_link_flags]
    lines += ["linkflag " + f for f in ctx.fragments.cpp.linkopts]
    out = ctx.actions.declare_file(ctx.label.name + ".txt")
    ctx.actions.write(out, "\n".join(lines) + "\n")
    files = depset([out] + archives, transitive = [comp.headers])
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(transitive_files = files))]

sandbox_cc = rule(
    implementation = _sandbox_cc_impl,
    attrs = {"lib": attr.label(providers = [CcInfo])},
    fragments = ["cpp"],
    doc = "Writes NAME.txt (cflag, include, archive and linkflag lines, paths relative " +
          "to the runfiles root) and puts the headers and archives of @lib in runfiles.",
)
