; The Windows installer: the PyInstaller bundle (dist\appliance, `make installer` on Windows) in
; Program Files\Appliance, and everything the service writes in %ProgramData%\Appliance: its settings
; file (appliance.env), its data directory (data\) and its log (logs\). The service is the bundle
; itself, `appliance.exe service run` (appliance/windows_service.py, pywin32), under a virtual account
; of its own (NT SERVICE\Appliance), started at boot and again after a failure.
;
; Built by .github/workflows/windows.yml on a Windows runner, and by
; tests/packaging/test_windows_installer.py with Debian's makensis against a stand-in folder:
;   makensis -INPUTCHARSET UTF8 -DBUNDLE=dist\appliance -DSETTINGS_FILE=dist\appliance.env \
;            -DVERSION=0.1.0 -DOUTFILE=dist\appliance-0.1.0-setup.exe packaging\windows\appliance.nsi
; SETTINGS_FILE is written by `appliance.exe service settings-file PATH`. This file is UTF-8 (its
; Spanish); without -INPUTCHARSET UTF8, makensis on Windows would read it in the machine's code page.
;
; Command line: /S installs or uninstalls silently; the uninstaller's /REMOVEDATA also deletes
; %ProgramData%\Appliance (its "Remove data" box, unticked by default).
; Plugins: only three that every NSIS ships, Debian's `nsis` package included: nsExec (sc, icacls,
; netsh and PowerShell without a console window), System (x64.nsh's 64-bit check) and nsDialogs
; (Modern UI's pages); the test fails on any other. The rest are the headers NSIS comes with
; (Modern UI 2, LogicLib, FileFunc, TextFunc, x64).

!ifndef BUNDLE | SETTINGS_FILE | VERSION | OUTFILE
  !error "define BUNDLE, SETTINGS_FILE, VERSION and OUTFILE (see the top of this file)"
!endif

Unicode true
SetCompressor /SOLID lzma
RequestExecutionLevel admin

; appliance/windows_service.py names the same (tests/packaging/test_windows_installer.py checks).
!define SERVICE_NAME "Appliance"
!define DISPLAY_NAME "Appliance (business messaging)"
!define SETTINGS_FILE_NAME "appliance.env"
!define LOG_FILE_NAME "appliance.log"
; APPLIANCE_PORT's default (appliance/settings.py), for a settings file that no longer names one.
!define DEFAULT_PORT "8080"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\${SERVICE_NAME}"
!define EVENT_SOURCE_KEY "SYSTEM\CurrentControlSet\Services\EventLog\Application\${SERVICE_NAME}"

Name "Appliance"
OutFile "${OUTFILE}"
InstallDir "$PROGRAMFILES64\Appliance"

!include MUI2.nsh
!include LogicLib.nsh
!include FileFunc.nsh
!include TextFunc.nsh
!include x64.nsh

Var DataRoot
Var Port

!define MUI_FINISHPAGE_LINK "$(OpenAppliance)"
!define MUI_FINISHPAGE_LINK_LOCATION "http://127.0.0.1:$Port/"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_COMPONENTS
!insertmacro MUI_UNPAGE_INSTFILES
; The first is the default; Windows in Spanish gets Spanish.
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "Spanish"

LangString OpenAppliance ${LANG_ENGLISH} "Open the appliance in the browser"
LangString OpenAppliance ${LANG_SPANISH} "Abrir el appliance en el navegador"
LangString Needs64Bit ${LANG_ENGLISH} "The appliance needs a 64-bit Windows."
LangString Needs64Bit ${LANG_SPANISH} "El appliance necesita un Windows de 64 bits."
LangString StepFailed ${LANG_ENGLISH} "This step failed, nothing after it was done:"
LangString StepFailed ${LANG_SPANISH} "Este paso falló; no se hizo nada después de él:"
LangString NotStarted ${LANG_ENGLISH} "The service was installed but did not start. Its log says why:"
LangString NotStarted ${LANG_SPANISH} "El servicio quedó instalado pero no arrancó. Su registro dice por qué:"
LangString ProgramSection ${LANG_ENGLISH} "The program and its service"
LangString ProgramSection ${LANG_SPANISH} "El programa y su servicio"
LangString RemoveDataSection ${LANG_ENGLISH} "Remove data (conversations, media, backups, settings, log)"
LangString RemoveDataSection ${LANG_SPANISH} "Borrar los datos (conversaciones, archivos, copias, ajustes, registro)"

; A command whose failure stops the installation with its exit code (silent installs report it).
!macro Run COMMAND
  StrCpy $R9 `${COMMAND}`
  nsExec::ExecToLog $R9
  Pop $0
  ${If} $0 != 0
    MessageBox MB_ICONSTOP "$(StepFailed)$\r$\n$R9 ($0)" /SD IDOK
    SetErrorLevel 2
    Abort
  ${EndIf}
!macroend

; Stops the service and waits until it has (an upgrade replaces its files; an uninstall deletes
; them). It drains requests and lets the queue's work in hand finish: a document being read may take
; its 5 minutes, hence 6. Nothing to do when there is no such service.
!macro StopService
  nsExec::ExecToLog `"$SYSDIR\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -Command "$$s = Get-Service -Name '${SERVICE_NAME}' -ErrorAction SilentlyContinue; if ($$s) { if ($$s.Status -eq 'Running') { $$s.Stop() }; $$s.WaitForStatus('Stopped', '00:06:00') }"`
  Pop $0
!macroend

Function .onInit
  ${IfNot} ${RunningX64}
    MessageBox MB_ICONSTOP "$(Needs64Bit)" /SD IDOK
    SetErrorLevel 2
    Abort
  ${EndIf}
  SetRegView 64
FunctionEnd

Section "Appliance"
  SetShellVarContext all
  StrCpy $DataRoot "$APPDATA\${SERVICE_NAME}"

  ; An upgrade: the running service lets go of its files, and none of the previous version's
  ; libraries may linger beside the new ones.
  !insertmacro StopService
  RMDir /r "$INSTDIR\_internal"
  SetOutPath "$INSTDIR"
  File /r "${BUNDLE}\*"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  ; The settings file is the administrator's once written: an upgrade keeps it.
  CreateDirectory "$DataRoot\data"
  CreateDirectory "$DataRoot\logs"
  SetOverwrite off
  SetOutPath "$DataRoot"
  File "/oname=${SETTINGS_FILE_NAME}" "${SETTINGS_FILE}"
  SetOverwrite on
  SetOutPath "$INSTDIR"
  ${ConfigRead} "$DataRoot\${SETTINGS_FILE_NAME}" "APPLIANCE_PORT=" $Port
  ${If} $Port < 1
  ${OrIf} $Port > 65535
    StrCpy $Port "${DEFAULT_PORT}"
  ${EndIf}

  ; The service, created or (an upgrade) brought up to date, under a virtual account: no password,
  ; no rights but what is granted below. Recovery: started again 5 s after a failure (a crash, or
  ; a stop with an error: failureflag), twice, then after a minute; the count resets after a day.
  ReadRegStr $1 HKLM "SYSTEM\CurrentControlSet\Services\${SERVICE_NAME}" "ImagePath"
  ${If} $1 == ""
    StrCpy $1 "create"
  ${Else}
    StrCpy $1 "config"
  ${EndIf}
  !insertmacro Run `sc.exe $1 ${SERVICE_NAME} binPath= "\"$INSTDIR\appliance.exe\" service run" start= auto obj= "NT SERVICE\${SERVICE_NAME}" DisplayName= "${DISPLAY_NAME}"`
  !insertmacro Run `sc.exe description ${SERVICE_NAME} "WhatsApp business messaging: the inbox, the API and the automation. Settings: $DataRoot\${SETTINGS_FILE_NAME}"`
  !insertmacro Run `sc.exe failure ${SERVICE_NAME} reset= 86400 actions= restart/5000/restart/5000/restart/60000`
  !insertmacro Run `sc.exe failureflag ${SERVICE_NAME} 1`

  ; %ProgramData% lets every user of the machine read what is in it: this folder holds the database
  ; and the master key. Only the system, administrators and the service enter it (SIDs: the names
  ; of the groups change with Windows' language); the service may read its settings, not change them.
  !insertmacro Run `icacls "$DataRoot" /inheritance:r /grant:r "*S-1-5-18:(OI)(CI)F" "*S-1-5-32-544:(OI)(CI)F" "NT SERVICE\${SERVICE_NAME}:(OI)(CI)M"`
  !insertmacro Run `icacls "$DataRoot\${SETTINGS_FILE_NAME}" /inheritance:r /grant:r "*S-1-5-18:F" "*S-1-5-32-544:F" "NT SERVICE\${SERVICE_NAME}:R"`

  ; What the service writes in the Event Log reads as words with pywin32's message table.
  WriteRegExpandStr HKLM "${EVENT_SOURCE_KEY}" "EventMessageFile" "$INSTDIR\_internal\servicemanager.pyd"
  WriteRegDWORD HKLM "${EVENT_SOURCE_KEY}" "TypesSupported" 7

  ; The office LAN reaches the port (the settings file's APPLIANCE_HOST=0.0.0.0), only from the
  ; local subnet and on private and domain networks: not from a café's Wi-Fi.
  nsExec::ExecToLog `netsh advfirewall firewall delete rule name="${DISPLAY_NAME}"`
  Pop $0
  !insertmacro Run `netsh advfirewall firewall add rule name="${DISPLAY_NAME}" dir=in action=allow protocol=TCP localport=$Port program="$INSTDIR\appliance.exe" remoteip=localsubnet profile=private,domain enable=yes`

  WriteINIStr "$SMPROGRAMS\Appliance.url" "InternetShortcut" "URL" "http://127.0.0.1:$Port/"
  WriteINIStr "$SMPROGRAMS\Appliance.url" "InternetShortcut" "IconFile" "$INSTDIR\appliance.exe"
  WriteINIStr "$SMPROGRAMS\Appliance.url" "InternetShortcut" "IconIndex" "0"

  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayName" "${DISPLAY_NAME}"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\appliance.exe"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKLM "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $2 $3
  WriteRegDWORD HKLM "${UNINSTALL_KEY}" "EstimatedSize" $0

  nsExec::ExecToLog `sc.exe start ${SERVICE_NAME}`
  Pop $0
  ${If} $0 != 0
    MessageBox MB_ICONEXCLAMATION "$(NotStarted)$\r$\n$DataRoot\logs\${LOG_FILE_NAME}" /SD IDOK
  ${EndIf}
SectionEnd

Section "un.$(ProgramSection)"
  SectionIn RO
  SetShellVarContext all
  !insertmacro StopService
  nsExec::ExecToLog `sc.exe delete ${SERVICE_NAME}`
  Pop $0
  nsExec::ExecToLog `netsh advfirewall firewall delete rule name="${DISPLAY_NAME}"`
  Pop $0
  DeleteRegKey HKLM "${EVENT_SOURCE_KEY}"
  Delete "$SMPROGRAMS\Appliance.url"
  ; What the installer put there, by name: never a recursive delete of a folder someone chose.
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\appliance.exe"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKLM "${UNINSTALL_KEY}"
SectionEnd

; Unticked unless asked for: the data stays for a reinstall or an upgrade, as a Debian remove
; (not a purge) keeps /var/lib/appliance.
Section /o "un.$(RemoveDataSection)" un.RemoveData
  SetShellVarContext all
  RMDir /r "$APPDATA\${SERVICE_NAME}"
SectionEnd

Function un.onInit
  SetRegView 64
  ${GetParameters} $0
  ClearErrors
  ${GetOptions} $0 "/REMOVEDATA" $1
  ${IfNot} ${Errors}
    SectionSetFlags ${un.RemoveData} ${SF_SELECTED}
  ${EndIf}
FunctionEnd
