"""The meta table: every unit against every target, both phases, as data.

``table(units=..., faction=..., targets=..., phases=...)`` returns it as a pandas
DataFrame in one call (``tactica.meta.notebook``). ``run(selection, folder)`` computes
it as partitioned Parquet (the module ``tactica.meta.table``) in-process or on Dask
distributed (the module ``tactica.meta.run``); ``load(folder)`` reads it as a pandas
DataFrame, ``query(folder, sql)`` with DuckDB, ``tactica.meta.plot`` draws it.
Every row is reproduced by ``tactica.calculate(scenario_of(row))``.
"""

from ..errors import needs_extra

# the meta extra (pip install "tactica[meta]"): pyarrow here, Dask, DuckDB, pandas and
# matplotlib where a run, a query or a plot needs them (checked here, imported there)
with needs_extra("meta", "tactica meta", ("distributed", "duckdb", "pandas", "matplotlib")):
    from .compute import Row, scenario_of

    # the one call of a notebook; the module tactica.meta.table stays importable by name
    # (importlib.import_module), as tactica.meta.run beside the function run
    from .notebook import table
    from .query import query
    from .run import RunReport, run
    from .table import SCHEMA, load
    from .tasks import Partition, Selection, plan, select_units

__all__ = ["SCHEMA", "Partition", "Row", "RunReport", "Selection", "load", "plan", "query",
           "run", "scenario_of", "select_units", "table"]
