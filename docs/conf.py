"""Sphinx configuration of the sweeplab book (``make docs``).

The landing page is the README, the notebooks are executed at the smoke preset, or the one
``SWEEPLAB_PRESET`` names (``make docs PRESET=quick``; their percent-format ``.py`` sources,
converted here into ``notebooks/``), and
the API reference comes from the numpydoc docstrings (autodoc with napoleon).
Warnings are errors: the Makefile runs ``sphinx-build -W``.
"""

from __future__ import annotations

import inspect
import os
import sys
from pathlib import Path

import jupyter_server_mathjax
import jupytext
from sphinx.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import sweeplab  # noqa: E402
from sweeplab.experiments import preset_from_env  # noqa: E402

# the notebooks, from their reviewed sources, executed at the test-sized preset unless told otherwise
try:
    os.environ["SWEEPLAB_PRESET"] = PRESET = preset_from_env("smoke")
except ValueError as exc:
    raise ConfigError(f"{exc}: make docs PRESET=quick, for example") from None
os.environ.pop("MPLBACKEND", None)  # the kernel's inline backend draws the figures
BUILT = Path(__file__).parent / "notebooks"
BUILT.mkdir(exist_ok=True)
for stale in BUILT.glob("*.ipynb"):
    stale.unlink()
for source in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py")):
    notebook = jupytext.read(source)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    jupytext.write(notebook, BUILT / f"{source.stem}.ipynb")

project = "sweeplab"
author = "sweeplab developers"
release = version = sweeplab.__version__
extensions = ["myst_nb", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.mathjax"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "notebooks/README.md"]

myst_enable_extensions = ["dollarmath", "amsmath"]
# MathJax from the book itself (jupyter-server-mathjax's copy of MathJax 2), not a CDN: the formulas
# render in a classroom without a network
html_static_path = [str(Path(jupyter_server_mathjax.__file__).parent / "static")]
mathjax_path = "MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"  # the one configuration it ships
mathjax2_config = {"tex2jax": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]],
                               "processEscapes": True, "processClass": "math|output_area",
                               "ignoreClass": "document"},
                   # the fonts it ships: STIX, as web fonts (no TeX fonts, no image fonts)
                   "HTML-CSS": {"availableFonts": [], "preferredFont": None, "webFont": "STIX-Web",
                                "imageFont": None}}
myst_heading_anchors = 3
nb_execution_mode = "cache"
# one cache per preset: the cache knows the notebooks' cells, not the preset they read
nb_execution_cache_path = str(Path(__file__).parent / "_build" / f".jupyter_cache-{PRESET}")
nb_execution_timeout = 900
nb_execution_raise_on_error = True
nb_execution_show_tb = True
# the explorer is a live widget: the book shows its text form (run the notebook to play), loads no widget JS
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}

autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
napoleon_use_ivar = True  # Attributes sections as fields: no second description of each attribute

html_theme = "pydata_sphinx_theme"
html_title = "sweeplab"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}


def _package_level_reference(app, env, node, contnode):
    """Link ``sweeplab.deduce`` (how the docstrings and the README name the public functions) to where
    it is documented, ``sweeplab.methods.deduce``: the name's own module and qualified name."""
    import importlib

    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not target.startswith("sweeplab."):
        return None
    module, _, name = target.rpartition(".")
    try:
        obj = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    domain = env.get_domain("py")
    if not (inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj)):
        # data (sweeplab.METHODS, sweeplab.COVERED) names no module: the module that documents it
        homes = sorted(m for m, mod in list(sys.modules.items())
                       if m.startswith("sweeplab.") and m != module and vars(mod).get(name) is obj)
        found = [domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], f"{home}.{name}",
                                     node, contnode) for home in homes]
        found = [f for f in found if f is not None]
        return found[0] if len(found) == 1 else None  # two homes (a shared small int): no guess
    home, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", name)
    if not home or f"{home}.{qualname}" == target:
        return None
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], f"{home}.{qualname}", node,
                               contnode)


#: a documented constant's value longer than this is shortened in its signature line (the registries and
#: example tables are thousands of characters on one line); a mapping shows its keys
LONGEST_VALUE = 300


def _documented_object(name):
    """The object a full dotted name (``sweeplab.agents.AGENTS``, a class attribute too) names, else None."""
    import importlib

    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for part in parts[split:]:
            obj = getattr(obj, part, None)
        return obj
    return None


def _shortened_value(obj, text):
    """``text`` (the ``repr`` autodoc shows) cut to :data:`LONGEST_VALUE` characters; a mapping's keys."""
    from collections.abc import Mapping

    if isinstance(obj, Mapping):
        shown = ""
        for count, key in enumerate(obj):
            if len(shown) > LONGEST_VALUE:
                return f"{type(obj).__name__} of {len(obj)}, keys {shown}, ... ({len(obj) - count} more)"
            shown = f"{shown}, {key!r}" if shown else repr(key)
        return f"{type(obj).__name__} of {len(obj)}, keys {shown}"
    return text[:LONGEST_VALUE].rstrip() + " ..."


def _shorten_long_values(app, doctree):
    """Shorten the ``= value`` of a documented constant past :data:`LONGEST_VALUE` characters."""
    from docutils import nodes
    from sphinx import addnodes

    for signature in doctree.findall(addnodes.desc_signature):
        for annotation in signature.findall(addnodes.desc_annotation):
            value = annotation.children[-1] if annotation.children else None
            is_value = annotation.astext().startswith(" = ")
            if not is_value or not isinstance(value, nodes.Text) or len(value) <= LONGEST_VALUE:
                continue
            obj = _documented_object(signature.get("ids", [""])[0])
            annotation.replace(value, nodes.Text(_shortened_value(obj, str(value))))


def setup(app):
    app.connect("missing-reference", _package_level_reference)
    app.connect("doctree-read", _shorten_long_values)

