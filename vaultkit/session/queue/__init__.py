"""The job queue and its runner's machinery: jobs, the runner lock, spawning, backfill."""
