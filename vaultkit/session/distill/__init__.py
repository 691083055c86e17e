"""Distillation: the prompt, the LLM backends and their guarded children, markers, costs."""
