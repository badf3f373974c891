"""What a seat sees, as data and pictures: the view schema and its docs, tensors, SVG and text.

* :mod:`aiplay.views.schema` -- the schema of a game's ``state.view(player)``;
* :mod:`aiplay.views.docs` -- ``games/<g>/view.md`` written from the schemas (``python -m aiplay.views.docs --update``);
* :mod:`aiplay.views.tensors` -- tensor encodings (``python -m aiplay.views.tensors --write``);
* :mod:`aiplay.views.viewtensors` -- a tensor encoding read off the view schema;
* :mod:`aiplay.views.svg` -- SVG pictures of a board;
* :mod:`aiplay.views.text` -- :func:`render_state`, a state as one seat sees it (text or SVG).
"""
