# cloop for PowerShell: run the agent again after it exits, once vaultkit has distilled the
# session; `q` during the countdown stops. Dot-source this file from $PROFILE:  . path\to\cloop.ps1
#
#   cloop [agent arguments…]
#
# $env:CLOOP_AGENT  the agent command (default: claude)
# $env:CLOOP_DELAY  countdown seconds before a restart (default: 5)
# $env:CLOOP_WAIT   longest wait for the distillation, in seconds (default: 120)
# $env:VAULTKIT     the vaultkit program (default: vaultkit on PATH)
# The same loop without a shell function: vaultkit loop -- claude [arguments…]

function cloop {
  param([Parameter(ValueFromRemainingArguments = $true)][string[]]$AgentArgs)
  $agent = if ($env:CLOOP_AGENT) { $env:CLOOP_AGENT } else { 'claude' }
  $delay = if ($env:CLOOP_DELAY) { [int]$env:CLOOP_DELAY } else { 5 }
  $wait = if ($env:CLOOP_WAIT) { $env:CLOOP_WAIT } else { '120' }
  $vaultkit = if ($env:VAULTKIT) { $env:VAULTKIT } else { 'vaultkit' }
  while ($true) {
    $started = [DateTimeOffset]::Now.ToUnixTimeSeconds()
    & $agent @AgentArgs
    & $vaultkit loop --wait-only --since $started --wait $wait
    for ($left = $delay; $left -gt 0; $left--) {
      Write-Host -NoNewline "`rcloop: restarting in ${left}s (q quits) "
      $deadline = (Get-Date).AddSeconds(1)
      while ((Get-Date) -lt $deadline) {
        if ([Console]::KeyAvailable) {
          $key = [Console]::ReadKey($true)
          if ($key.KeyChar -eq 'q' -or $key.KeyChar -eq 'Q') {
            Write-Host "`rcloop: stopped                        "
            return
          }
        }
        Start-Sleep -Milliseconds 50
      }
    }
    Write-Host -NoNewline ("`r" + (' ' * 40) + "`r")
  }
}
