"""The session pipeline: jobs, transcripts, distillation, note writing and the worker."""
