"""Code shared by the method plugins (not plugins: the registry scans only the modules
directly in :mod:`harness.methods`): the LMNN cores (loss, impostor search, solvers),
the spectral and variational MVU cores, the out-of-sample SDP core, the peers' wrapper,
the kNN classifier under a metric. Benchmarks time these cores through these names."""
