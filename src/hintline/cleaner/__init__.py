"""The stages of :func:`hintline.clean`, one module each (internal: the public API is
:func:`hintline.clean` and :class:`hintline.Hint`).

* :mod:`~hintline.cleaner.bound`: whatever ``clean()`` is given (text, bytes, an exception
  chain) into bounded text.
* :mod:`~hintline.cleaner.match`: the one-pass matcher over the ordered rule table
  (:mod:`~hintline.cleaner._vectorscan` is its Vectorscan engine; :mod:`~hintline.cleaner._patterns`
  what the engines need to know about a rule's pattern).
* :mod:`~hintline.cleaner.fallback`: the most useful line when no rule matches.
"""
