"""The stages of :func:`hintline.clean`, one module each, in the order they run (internal: the
public API is :func:`hintline.clean` and :class:`hintline.Hint`)::

    bound -> normalise -> locate -> match(block) -> match(rest) -> render | fallback

* :mod:`~hintline.cleaner.bound`: whatever ``clean()`` is given (text, bytes, an exception
  chain) into bounded text; a window around a failure in the middle of a long input is kept.
* :mod:`~hintline.cleaner.normalise`: JSON records and envelopes (:mod:`~hintline.cleaner._json`),
  HTML pages (:mod:`~hintline.cleaner._html`), CRLF, escapes and common line prefixes into the
  plain text a person would read.
* :mod:`~hintline.cleaner.locate`: the failing block of a log or a test report (the last ERROR
  record or exception), matched first; records below ERROR never decide.
* :mod:`~hintline.cleaner.match`: the one-pass matcher over the ordered rule table
  (:mod:`~hintline.cleaner._vectorscan` is its Vectorscan engine; :mod:`~hintline.cleaner._patterns`
  what the engines need to know about a rule's pattern).
* :mod:`~hintline.cleaner.render`: :class:`~hintline.cleaner.render.Hint` and the rendering
  contract of a rule's template.
* :mod:`~hintline.cleaner.fallback`: the root cause, the error record's message or the line that
  says something when no rule matches.
"""
