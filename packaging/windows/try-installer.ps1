# Installs the Windows installer silently and checks what it did, as an administrator on a machine
# where the appliance is not installed (the CI's Windows runner: .github/workflows/windows.yml; or a
# test machine by hand): the service answers /health/ready under its own account, with its data in
# %ProgramData%\Appliance locked to it; Windows starts it again after a kill; it drains when stopped;
# an install over it keeps the data; the uninstaller removes it and keeps the data, unless /REMOVEDATA.
#   pwsh -File packaging\windows\try-installer.ps1 dist\appliance-0.1.0-setup.exe
param([Parameter(Mandatory = $true)][string]$Installer)
$ErrorActionPreference = 'Stop'

$Service = 'Appliance'
$Rule = 'Appliance (business messaging)'  # the firewall rule: the service's display name
$DataRoot = Join-Path $env:ProgramData 'Appliance'
$InstallDir = Join-Path $env:ProgramFiles 'Appliance'
$Log = Join-Path $DataRoot 'logs\appliance.log'
$Ready = 'http://127.0.0.1:8080/health/ready'

function Fail([string]$Why) {
    if (Test-Path $Log) { Write-Host "--- $Log"; Get-Content $Log -Tail 60 | Write-Host }
    throw $Why
}

function Invoke-Checked([string]$File, [string[]]$Arguments) {
    $process = Start-Process -FilePath $File -ArgumentList $Arguments -Wait -PassThru
    if ($process.ExitCode -ne 0) { Fail "$File $Arguments ended with $($process.ExitCode)" }
}

function Wait-Ready([int]$Seconds = 180) {
    $deadline = (Get-Date).AddSeconds($Seconds)
    while ((Get-Date) -lt $deadline) {
        try { return Invoke-RestMethod -Uri $Ready -TimeoutSec 5 } catch { Start-Sleep -Seconds 2 }
    }
    Fail "the service did not answer $Ready within $Seconds s"
}

function Install {
    Invoke-Checked (Resolve-Path $Installer).Path @('/S')
    $answer = Wait-Ready
    if ($answer.data.checks.database -ne 'ok' -or $answer.data.checks.queue -ne 'ok') { Fail "not ready: $($answer | ConvertTo-Json -Depth 5)" }
}

function Uninstall([string[]]$Options) {
    # _?= runs the uninstaller in place and waits for it (it cannot delete itself then: done after).
    Invoke-Checked (Join-Path $InstallDir 'uninstall.exe') (@('/S') + $Options + @("_?=$InstallDir"))
    Remove-Item -Recurse -Force $InstallDir
    if (Get-Service -Name $Service -ErrorAction SilentlyContinue) { Fail 'the service is still registered' }
    if (Get-NetFirewallRule -DisplayName $Rule -ErrorAction SilentlyContinue) { Fail 'the firewall rule is still there' }
}

Write-Host '== install'
Install
$config = sc.exe qc $Service | Out-String
if ($config -notmatch 'NT SERVICE\\Appliance' -or $config -notmatch 'AUTO_START' -or $config -notmatch 'service run') { Fail "service configuration: $config" }
$failure = sc.exe qfailure $Service | Out-String
if ($failure -notmatch 'RESTART') { Fail "recovery options: $failure" }
if (-not (Test-Path (Join-Path $DataRoot 'data\appliance.db'))) { Fail 'no database in %ProgramData%\Appliance\data' }
$strangers = (Get-Acl $DataRoot).Access | Where-Object { $_.IdentityReference.Translate([Security.Principal.SecurityIdentifier]).Value -in @('S-1-5-32-545', 'S-1-5-11', 'S-1-1-0') }
if ($strangers) { Fail "users of the machine may read $DataRoot" }
if (-not (Get-NetFirewallRule -DisplayName $Rule -ErrorAction SilentlyContinue)) { Fail 'no firewall rule' }
$shortcut = Join-Path $env:ProgramData 'Microsoft\Windows\Start Menu\Programs\Appliance.url'
if ((Get-Content $shortcut -Raw) -notmatch 'URL=http://127.0.0.1:8080/') { Fail "the Start menu's shortcut: $(Get-Content $shortcut -Raw)" }

Write-Host '== killed, Windows starts it again (the recovery options)'
function Get-ServicePid { (Get-CimInstance Win32_Service -Filter "Name='$Service'").ProcessId }
$killed = Get-ServicePid
Stop-Process -Id $killed -Force
Wait-Ready | Out-Null
if ((Get-ServicePid) -in @(0, $killed)) { Fail 'the service was not started again after its process was killed' }

Write-Host '== stopped, it drains'
Stop-Service -Name $Service
$text = Get-Content $Log -Raw
if ($text -notmatch 'received SIGTERM, stopping' -or $text -notmatch 'appliance\.server: stopped') { Fail 'no drained stop in the log' }
Start-Service -Name $Service
Wait-Ready | Out-Null

Write-Host '== installed over itself (an upgrade), the data kept'
$key = Get-Content (Join-Path $DataRoot 'data\secret.key') -Raw
Install
if ((Get-Content (Join-Path $DataRoot 'data\secret.key') -Raw) -ne $key) { Fail 'the upgrade changed the data' }

Write-Host '== uninstalled, the data kept'
Uninstall @()
if (-not (Test-Path (Join-Path $DataRoot 'data\appliance.db'))) { Fail 'the uninstaller removed the data without being asked' }

Write-Host '== installed again on the kept data, uninstalled with /REMOVEDATA'
Install
Uninstall @('/REMOVEDATA')
if (Test-Path $DataRoot) { Fail "$DataRoot is still there after /REMOVEDATA" }
Write-Host 'the Windows installer: ok'
