"""Bootstrap samples: the samples of a run as data, their file format and
the sample-by-item multiplicity matrices every resampled statistic is
gathered with (:mod:`~scorer.bootstrap.sampleset`), and their seeded drawing
(:mod:`~scorer.bootstrap.draws`), and who draws a track's samples
(:mod:`~scorer.bootstrap.plan`).  Everything is importable from
``scorer.bootstrap`` itself.

The samples file is the one ``CS-GenerateSamples-MASTER.pl`` writes and
``CS-Score-MASTER.pl -samples`` reads (spec §6.1), one sample per line::

    <sample number> <GROUP>:<ID>[,<ID>...] <GROUP>:<ID>... ...

For Cold Start a group is an LDC query and its ids are the SF queries (entry
points) of that LDC query.  For the counts-table tasks every unit is its own
group and an element is just ``<ID>``.
"""
from scorer.bootstrap.draws import (MAX_DRAWS, MAX_REPORT_BYTES, MAX_SAMPLES,  # noqa: F401
                                    check_report_size, check_size, doubles, generate,
                                    generate_clustered, seed_from_text, stream_of_doubles)
from scorer.bootstrap.plan import SamplingPlan  # noqa: F401
from scorer.bootstrap.sampleset import (Element, SampleSet, parse_samples,  # noqa: F401
                                        read_samples, samples_digest)
