"""The job side of the code several results share: what one job runs (a grid cell, one
MVU embedding, one ball-tree timing, one sensor network). A job's source files are its
import closure, so nothing here imports writer code (``common.write``, matplotlib,
tabulate): editing how a result is written reruns no job."""
