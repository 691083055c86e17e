"""``vaultkit lint``: rules that turn a loaded vault into findings with stable codes."""
