"""One writer per Cold Start report file; ``tables`` holds their shared layout."""
