"""The problems the toolkit's tools report: the Cold Start library's catalogue
(names, types and message texts as ColdStartLib.pm 2017.2.0 has them, byte for
byte, so that error logs read and grep the same), shared by every tool.

Types: a WARNING is reported and the tool goes on (often repairing what it
warns of); an ERROR is reported, the tool checks on, and writes no output; a
FATAL_ERROR stops the tool at once (``problemlog.Fatal``).  A template ending
in a space keeps it: the Perl's does.
"""
from __future__ import annotations

from scorer.coldstart.toolkit.problemlog import formats_from_table

#: name -> Format(type, template) of every problem of the library.
FORMATS = formats_from_table("""
# Provenance Errors
FAILED_LANG_INFERENCE          WARNING     Unable to infer language from DOCID %s. Using %s by default.
ILLEGAL_DOCID                  FATAL_ERROR DOCID %s is not a valid DOCID for this task
ILLEGAL_OFFSET                 ERROR       %s is not a valid offset
ILLEGAL_OFFSET_IN_DOC          ERROR       %s is not a valid offset for DOCID %s
ILLEGAL_OFFSET_PAIR            ERROR       (%s, %s) is not a valid offset pair
ILLEGAL_OFFSET_PAIR_STRING     ERROR       %s is not a valid offset pair string
ILLEGAL_OFFSET_TRIPLE_STRING   ERROR       %s is not a valid docid/offset pair string
MISSING_FILLER_STRING_PROV     ERROR       Filler string missing in provencance: %s
MULTIPLE_DOCIDS_IN_PROV        ERROR       %s contains multiple DOCIDs
MULTIPLE_STRINGS_FOR_PROV      ERROR       Multiple strings provided for provenance: %s (%s)
TOO_MANY_PROVENANCE_TRIPLES    WARNING     Too many provenance triples (%d) provided; only the first %d will be used
TOO_MANY_PROVENANCE_TRIPLES_E  ERROR       Unexpected number of provenance triples: provided=(%d) expected=(%d)
TOO_MANY_CHARS                 WARNING     Provenance contains too many characters; only the first %d will be used
TOO_MANY_TOTAL_CHARS           ERROR       All provenance strings contain a total of more than %d characters
UNEXPECTED_PROVENANCE          ERROR       Only PREDICATE_JUSTIFICATION is expected in the provenance: %s
UNEXPECTED_BASE_FILLER         ERROR       %s is not an allowed value for BASE_FILLER provenance for event assertions
TOO_MANY_PROVENANCES_IN_LIST   ERROR       Unexpected number of provenances in the list: %s. provided=(%d) expected=(%d)

# Knowledge Base Errors
AMBIGUOUS_PREDICATE            ERROR       %s: ambiguous predicate
COLON_OMITTED                  WARNING     Initial colon omitted from name of node %s
DUPLICATE_ASSERTION            WARNING     The same assertion is made more than once (%s)
ILLEGAL_CONFIDENCE_VALUE       ERROR       Illegal confidence value: %s
ILLEGAL_NODE_NAME              ERROR       Illegal node name: %s. (Accepted: :Entity..., :Event..., :String...; A dash '-' is not acceptable as part of the name)
ILLEGAL_NODE_TYPE              ERROR       Illegal node type: %s
ILLEGAL_LINK_SPECIFICATION     WARNING     Illegal link specification: %s
ILLEGAL_PREDICATE              ERROR       Illegal predicate: %s
ILLEGAL_PREDICATE_TYPE         ERROR       Illegal predicate type: %s
ILLEGAL_REALIS                 ERROR       Illegal realis: %s
INACCURACTE_MENTION_STRING     WARNING     Mention (or filler) string '%s' not found at %s
INCOMPATIBLE_NODE_NAME         ERROR       Node name %s is not compatible with type %s
IMPROPER_CONFIDENCE_VALUE      WARNING     Confidence value in scientific format: %s
MISSING_CANONICAL              WARNING     Entity %s has no canonical mention in document %s
MISSING_CANONICAL_E            ERROR       Canonical mention of node %s in document %s required for inferring inverse
MISSING_MENTION                WARNING     Node %s has no mention in document %s
MISSING_MENTION_E              ERROR       %s: '%s' is not a mention of node %s
MISSING_DECIMAL_POINT          WARNING     Decimal point missing in confidence value: %s
MISSING_INVERSE                WARNING     No inverse relation asserted for %s(%s, %s)
MISSING_REALIS                 ERROR       Realis is missing in assertion: %s
MISSING_RUNID                  ERROR       The first line of the file does not contain a legal runid
MISSING_TYPEDEF                ERROR       No type asserted for Node %s
MULTIPLE_CANONICAL             ERROR       More than one canonical mention for Node %s in document %s
MULTIPLE_FILLS_ENTITY          WARNING     Node %s has multiple %s fills, but should be single-valued
MULTIPLE_LINKS                 WARNING     More than one link from node %s to KB %s
MULTIPLE_MENTIONS_NO_CANONICAL ERROR       Node %s has more than one named/nominal mention in document %s but has no canonical mention
MULTITYPED_ENTITY              ERROR       Node %s has more than one type: %s
NO_MENTIONS                    WARNING     Node %s has no mentions
PREDICATE_ALIAS                WARNING     Use of %s predicate; %s replaced with %s
STRING_USED_FOR_ENTITY         ERROR       Expecting a node, but got string %s
SUBJECT_PREDICATE_MISMATCH     ERROR       Type of subject (%s) does not match type of predicate (%s)
UNASSERTED_MENTION             WARNING     Failed to assert that %s in document %s is also a mention
UNATTESTED_RELATION_ENTITY     ERROR       Relation %s uses node %s, but that node has no mentions in provenance %s
UNEXPECTED_REALIS              ERROR       Unexpected value of realis (expected %s, got %s)
UNQUOTED_STRING                WARNING     String %s not surrounded by double quotes
UNKNOWN_TYPE                   ERROR       Cannot infer type for Node %s

# Query File Errors
DUPLICATE_QUERY                WARNING     Queries %s and %s share entry point(s)
DUPLICATE_QUERY_ID             WARNING     Duplicate query ID %s
DUPLICATE_QUERY_FIELD          WARNING     Duplicate <%s> tag
MALFORMED_QUERY                ERROR       Malformed query %s
MISMATCHED_HOP_SUBTYPES        WARNING     In %s, range of %s does not match domain of %s
MISMATCHED_HOP_TYPES           WARNING     In %s, type of %s does not match domain of %s
MISMATCHED_TAGS                WARNING     <%s> tag closed with </%s>
MISSING_QUERY_FIELD            ERROR       Missing <%s> tag in query %s
NO_QUERIES_LOADED              WARNING     No queries found
POSSIBLE_DUPLICATE_QUERY       WARNING     Queries %s and %s are possibly duplicates, based on entrypoint %s
QUERY_WITHOUT_LOADED_PARENT    ERROR       Query %s has parent %s that was not loaded
UNKNOWN_QUERY_FIELD            WARNING     <%s> is not a recognized query field
UNLOADED_QUERY                 WARNING     Query %s is not present in the query files; skipping it

# Submission File/Assessment File Errors
BAD_QUERY                      WARNING     Response for illegal query %s skipped
DISCARDED_DEPENDENT            WARNING     Following line has been discarded because all of its parents were discarded due to constraints on multiple justifications: %s
DISCARDED_DEPENDENT_DEPTH      WARNING     Following line has been discarded because all of its parents were discarded due to depth constraints: %s
DISCARDED_ENTRY                WARNING     Following line has been discarded due to constraints on multiple justifications: %s
DISCARDED_ENTRY_DEPTH          WARNING     Following line has been discarded due to depth constraints: %s
DUPLICATE_LINE                 WARNING     Following line appears more than once in the submission therefore all copies but one will be removed: %s
EMPTY_FIELD                    WARNING     Empty value for column %s
EMPTY_FILE                     WARNING     Empty response or assessment file: %s
ILLEGAL_VALUE_TYPE             ERROR       Illegal value type: %s
MISMATCHED_RUNID               FATAL_ERROR Multiple runids were used: %s
MULTIPLE_CORRECT_GROUND_TRUTH  WARNING     More than one correct choice for ground truth for query %s
MULTIPLE_DOCIDS_IN_RESPONSE    ERROR       Multiple DOCIDs used in response: %s
MULTIPLE_FILLS_SLOT            WARNING     Multiple responses given to single-valued slot %s
MULTIPLE_RUNIDS                WARNING     File contains multiple run IDs (%s, %s)
OFF_TASK_SLOT                  WARNING     %s slot is not valid for task %s
SEMICOLON_IN_PROVENANCE_E      ERROR       A semicolon is used in the provenance %s
SEMICOLON_AS_SEPARATOR         WARNING     A semicolon is used as a triple separator in the provenance %s. The semicolon will be replaced with a comma. 
UNEXPECTED_ASSESSMENT_ENTRY    ERROR       Child with no correct parent found in assessment file. %s %s
UNKNOWN_QUERY_ID               ERROR       Unknown query: %s
UNKNOWN_QUERY_ID_WARNING       WARNING     Unknown query: %s
UNKNOWN_RESPONSE_FILE_TYPE     FATAL_ERROR %s is not a known response file type
UNKNOWN_SLOT_NAME              ERROR       Unknown slot name: %s
WRONG_SLOT_NAME                WARNING     Slot %s is not the requested slot for query %s (expected %s)

# Multi-Use Errors
WRONG_NUM_ENTRIES              ERROR       Wrong number of entries on line (expected %d, got %d)
""")
