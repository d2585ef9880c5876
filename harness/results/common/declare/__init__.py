"""The declarations' side of the code several results share: job keys, profile checks,
parameters and specs. Light: imported at discovery by every command, so nothing here
imports a solver, a plugin's code or a writer."""
