"""Vectorscan (Hyperscan) support shared by the rule engine, the scrubber and the trace reader:
the disk cache of compiled databases (:mod:`.cache`) and the literal screen (:mod:`.screen`)."""
