"""Bootstrap samples: the samples of a run (:mod:`~scorer.bootstrap.sampleset`:
the samples-file format, the sample-by-item multiplicity matrices every
resampled statistic is gathered with, seeded generation).  Everything is
importable from ``scorer.bootstrap`` itself."""
from scorer.bootstrap.sampleset import (MAX_DRAWS, MAX_REPORT_BYTES, MAX_SAMPLES,  # noqa: F401
                                        Element, SampleSet, _bits, _uniform,
                                        check_report_size, check_size, generate,
                                        generate_clustered, parse_samples, read_samples,
                                        samples_digest, seed_from_text)
