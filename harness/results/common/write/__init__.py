"""The outputs side of the code several results share: tables, figures, claims and
report sections, built from the records. Never imported by a job."""
