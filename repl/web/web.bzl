"""The browser sandbox: the kobj program's C sources compiled to WebAssembly by emcc.

The sources are not listed here. An aspect walks //repl:kobj and its deps and collects
the C files and headers of every target in this workspace (the core, its generated
timeline page, the Lua bindings, the program), so files added or moved anywhere under
core/ or lua_bindings/ are built for the browser exactly as for the terminal.
"""

CSourcesInfo = provider(
    doc = "C sources and headers of this workspace's targets, transitively",
    fields = ["srcs", "hdrs", "includes", "defines"],
)

def _in_workspace(label):
    return label.workspace_root == ""

def _c_sources_aspect_impl(target, ctx):
    srcs, hdrs = [], []
    if _in_workspace(target.label):
        for attr in ["srcs", "hdrs", "textual_hdrs"]:
            for f in getattr(ctx.rule.files, attr, []):
                if f.extension == "c":
                    srcs.append(f)
                elif f.extension == "h":
                    hdrs.append(f)
    includes, defines = [], []
    if _in_workspace(target.label) and CcInfo in target:
        cc = target[CcInfo].compilation_context
        for d in cc.includes.to_list() + cc.quote_includes.to_list() + cc.system_includes.to_list():
            if not d.startswith("external/") and "/external/" not in d:
                includes.append(d)
        defines = cc.defines.to_list()
    deps = getattr(ctx.rule.attr, "deps", [])
    return [CSourcesInfo(
        srcs = depset(srcs, transitive = [d[CSourcesInfo].srcs for d in deps if CSourcesInfo in d]),
        hdrs = depset(hdrs, transitive = [d[CSourcesInfo].hdrs for d in deps if CSourcesInfo in d]),
        includes = depset(includes, transitive = [d[CSourcesInfo].includes for d in deps if CSourcesInfo in d]),
        defines = depset(defines, transitive = [d[CSourcesInfo].defines for d in deps if CSourcesInfo in d]),
    )]

c_sources_aspect = aspect(
    implementation = _c_sources_aspect_impl,
    attr_aspects = ["deps"],
)

# An entry of `exclude` is a path ("repl/main.c") or a file name found anywhere ("render.c").
def _excluded(f, exclude):
    for e in exclude:
        if f.short_path == e or ("/" not in e and f.basename == e):
            return True
    return False

def _web_site_impl(ctx):
    info = ctx.attr.program[CSourcesInfo]
    srcs = [f for f in info.srcs.to_list() if not _excluded(f, ctx.attr.exclude)]
    out = ctx.actions.declare_directory(ctx.attr.name)
    args = ctx.actions.args()
    args.add("--out", out.path)
    args.add("--lua", ctx.attr.lua_src.label.workspace_root + "/lua/src")
    args.add("--assemble", ctx.file._assemble)
    args.add_all(ctx.files.vendor, before_each = "--vendor")
    args.add_all(ctx.files.lessons, before_each = "--lesson")
    args.add_all(ctx.files.page, before_each = "--page")
    args.add_all(info.includes, before_each = "--include")
    args.add_all(info.defines, before_each = "--define")
    args.add_all(srcs + [f for f in ctx.files.web_srcs if f.extension == "c"], before_each = "--src")
    ctx.actions.run(
        executable = ctx.file._build,
        arguments = [args],
        inputs = depset(
            srcs + ctx.files.web_srcs + ctx.files.page + ctx.files.vendor + ctx.files.lessons +
            ctx.files.lua_src + [ctx.file._assemble],
            transitive = [info.hdrs],
        ),
        outputs = [out],
        mnemonic = "Emcc",
        progress_message = "Building the browser sandbox with emcc",
        # emcc runs node and writes its cache of system libraries under /usr/share/emscripten
        execution_requirements = {"no-sandbox": "1"},
        use_default_shell_env = True,
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

web_site = rule(
    implementation = _web_site_impl,
    doc = "A folder of static files: the page, its worker and the WebAssembly sandbox",
    attrs = {
        "program": attr.label(aspects = [c_sources_aspect], mandatory = True),
        "exclude": attr.string_list(doc = "sources the browser does without or replaces"),
        "web_srcs": attr.label_list(allow_files = [".c", ".h"]),
        "page": attr.label_list(allow_files = True),
        "vendor": attr.label_list(allow_files = True),
        "lessons": attr.label_list(allow_files = True),
        "lua_src": attr.label(allow_files = True, mandatory = True),
        "_build": attr.label(default = "//repl/web:build.sh", allow_single_file = True),
        "_assemble": attr.label(default = "//repl/web:assemble.js", allow_single_file = True),
    },
)
