"""The lint cache: stored state, the stat walk and the plan that re-lints only what changed."""
