# cloop for bash and zsh: run the agent again after it exits, once vaultkit has distilled the
# session; `q` during the countdown stops. Source this file from ~/.bashrc or ~/.zshrc.
#
#   cloop [agent arguments…]
#
# CLOOP_AGENT  the agent command (default: claude)
# CLOOP_DELAY  countdown seconds before a restart (default: 5)
# CLOOP_WAIT   longest wait for the distillation, in seconds (default: 120)
# VAULTKIT     the vaultkit program (default: vaultkit on PATH)
# The same loop without a shell function: vaultkit loop -- claude [arguments…]

cloop() {
  local agent=${CLOOP_AGENT:-claude} delay=${CLOOP_DELAY:-5} started left key
  while :; do
    started=$(date +%s)
    command "$agent" "$@"
    command "${VAULTKIT:-vaultkit}" loop --wait-only --since "$started" --wait "${CLOOP_WAIT:-120}"
    left=$delay
    while [ "$left" -gt 0 ]; do
      printf '\rcloop: restarting in %ss (q quits) ' "$left"
      key=
      if [ -n "${ZSH_VERSION-}" ]; then
        read -s -k 1 -t 1 key
      else
        read -r -s -n 1 -t 1 key
      fi
      case $key in
        q | Q)
          printf '\rcloop: stopped                        \n'
          return 0
          ;;
      esac
      left=$((left - 1))
    done
    printf '\r%40s\r' ''
  done
}
