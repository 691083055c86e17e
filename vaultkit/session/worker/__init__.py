"""The distillation worker: one job's steps and outcome, the queue runner, its process entry."""
