"""TAC KBP Cold Start: the scorer's modules (CS-Score-MASTER.pl 2017.2.0, spec §N in the
code), and the toolkit's tools in front of it."""
