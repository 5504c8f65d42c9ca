"""One writer per Cold Start report file; ``columns`` holds the layout of the Perl's
tables they share (fields, cells, column widths, lines)."""
