"""The notes a session leaves: summary and wiki writing, safe names, summary retention."""
