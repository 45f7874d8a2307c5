"""Jobs submitted to engines as files (``spark-submit .../jobs/spark_scan.py``).

They live in a folder of their own because an engine puts the job's folder first on
``sys.path``: next to hintline's integration modules, ``logging.py`` would shadow the stdlib.
"""
