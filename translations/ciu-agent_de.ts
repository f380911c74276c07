<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ciu::ui::AgentIndicator</name>
    <message>
        <location filename="../ui/enginestatus.cpp" line="107"/>
        <source>AGENT ACTIVE</source>
        <translation>AGENT AKTIV</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="111"/>
        <source>Agent paused</source>
        <translation>Agent pausiert</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="115"/>
        <source>Agent stopping</source>
        <translation>Agent hält an</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="120"/>
        <source>Agent idle</source>
        <translation>Agent untätig</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="127"/>
        <source>The agent controls mouse and keyboard. Press the emergency stop hotkey or Stop to end it.</source>
        <translation>Der Agent steuert Maus und Tastatur. Drücken Sie das Not-Aus-Tastenkürzel oder „Stopp“, um ihn zu beenden.</translation>
    </message>
</context>
<context>
    <name>ciu::ui::AppSettings</name>
    <message>
        <location filename="../ui/appsettings.cpp" line="115"/>
        <source>Unknown provider “%1”.</source>
        <translation>Unbekannter Anbieter „%1“.</translation>
    </message>
    <message>
        <location filename="../ui/appsettings.cpp" line="117"/>
        <source>Unknown speed mode “%1”.</source>
        <translation>Unbekannter Geschwindigkeitsmodus „%1“.</translation>
    </message>
    <message>
        <location filename="../ui/appsettings.cpp" line="125"/>
        <source>The base URL “%1” is not an http(s) URL.</source>
        <translation>Die Basis-URL „%1“ ist keine http(s)-URL.</translation>
    </message>
    <message>
        <location filename="../ui/appsettings.cpp" line="130"/>
        <source>The capture rate must be between 15 and 30 frames per second.</source>
        <translation>Die Aufnahmerate muss zwischen 15 und 30 Bildern pro Sekunde liegen.</translation>
    </message>
    <message>
        <location filename="../ui/appsettings.cpp" line="133"/>
        <source>The Tier 1 threshold must not be above the Tier 2 threshold.</source>
        <translation>Die Schwelle für Stufe 1 darf nicht über der Schwelle für Stufe 2 liegen.</translation>
    </message>
    <message>
        <location filename="../ui/appsettings.cpp" line="136"/>
        <source>The iteration limit must be at least 1.</source>
        <translation>Das Iterationslimit muss mindestens 1 sein.</translation>
    </message>
    <message>
        <location filename="../ui/appsettings.cpp" line="138"/>
        <source>The cost limit must not be negative.</source>
        <translation>Das Kostenlimit darf nicht negativ sein.</translation>
    </message>
    <message>
        <location filename="../ui/appsettings.cpp" line="140"/>
        <source>The recording limits must not be negative.</source>
        <translation>Die Aufzeichnungsgrenzen dürfen nicht negativ sein.</translation>
    </message>
    <message>
        <location filename="../ui/appsettings.cpp" line="143"/>
        <source>The emergency stop needs a hotkey.</source>
        <translation>Der Not-Aus braucht ein Tastenkürzel.</translation>
    </message>
</context>
<context>
    <name>ciu::ui::ConfirmationDialog</name>
    <message>
        <location filename="../ui/confirmationdialog.cpp" line="17"/>
        <source>&amp;Allow once</source>
        <translation>&amp;Einmal erlauben</translation>
    </message>
    <message>
        <location filename="../ui/confirmationdialog.cpp" line="18"/>
        <source>&amp;Deny</source>
        <translation>&amp;Ablehnen</translation>
    </message>
    <message>
        <location filename="../ui/confirmationdialog.cpp" line="20"/>
        <source>Confirm a high-risk action</source>
        <translation>Riskante Aktion bestätigen</translation>
    </message>
    <message>
        <location filename="../ui/confirmationdialog.cpp" line="25"/>
        <source>&lt;b&gt;The agent wants to perform an action that needs your confirmation.&lt;/b&gt;</source>
        <translation>&lt;b&gt;Der Agent möchte eine Aktion ausführen, die Ihre Bestätigung braucht.&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../ui/confirmationdialog.cpp" line="34"/>
        <source>(no image of the target)</source>
        <translation>(kein Bild des Ziels)</translation>
    </message>
    <message>
        <location filename="../ui/confirmationdialog.cpp" line="41"/>
        <source>Image of the target</source>
        <translation>Bild des Ziels</translation>
    </message>
    <message>
        <location filename="../ui/confirmationdialog.cpp" line="49"/>
        <source>Why: %1</source>
        <translation>Grund: %1</translation>
    </message>
</context>
<context>
    <name>ciu::ui::EngineBridge</name>
    <message>
        <location filename="../ui/enginebridge.cpp" line="115"/>
        <source>The new capture and recording settings apply after this task.</source>
        <translation>Die neuen Erfassungs- und Aufzeichnungseinstellungen gelten nach dieser Aufgabe.</translation>
    </message>
    <message>
        <location filename="../ui/enginebridge.cpp" line="147"/>
        <source>Connecting to %1…</source>
        <translation>Verbinde mit %1 …</translation>
    </message>
    <message>
        <location filename="../ui/enginebridge.cpp" line="170"/>
        <source>Connected: the agent sees %1.</source>
        <translation>Verbunden: Der Agent sieht %1.</translation>
    </message>
    <message>
        <location filename="../ui/enginebridge.cpp" line="179"/>
        <source>The engine failed: %1</source>
        <translation>Die Engine ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location filename="../ui/enginebridge.cpp" line="185"/>
        <source>Recording to %1</source>
        <translation>Aufzeichnung nach %1</translation>
    </message>
    <message>
        <location filename="../ui/enginebridge.cpp" line="189"/>
        <source>Recording stopped: %1. The agent is paused; what was recorded is kept.</source>
        <translation>Aufzeichnung angehalten: %1. Der Agent pausiert; das bisher Aufgezeichnete bleibt erhalten.</translation>
    </message>
    <message>
        <location filename="../ui/enginebridge.cpp" line="192"/>
        <source>Recording stopped</source>
        <translation>Aufzeichnung angehalten</translation>
    </message>
    <message>
        <location filename="../ui/enginebridge.cpp" line="202"/>
        <source>Task %1: %2</source>
        <translation>Aufgabe %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/enginebridge.cpp" line="289"/>
        <source>The task starts once the engine sees the display.</source>
        <translation>Die Aufgabe startet, sobald die Engine den Bildschirm sieht.</translation>
    </message>
</context>
<context>
    <name>ciu::ui::EngineStatusBar</name>
    <message>
        <location filename="../ui/enginestatus.cpp" line="12"/>
        <source>%1 fps</source>
        <translation>%1 B/s</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="17"/>
        <source>T0 %1 · T1 %2 · T2 %3</source>
        <translation>S0 %1 · S1 %2 · S2 %3</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/enginestatus.cpp" line="25"/>
        <source>%n model call(s), %1 tokens</source>
        <translation>
            <numerusform>%n Modellaufruf, %1 Tokens</numerusform>
            <numerusform>%n Modellaufrufe, %1 Tokens</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="33"/>
        <source>$%1 of $%2</source>
        <translation>$%1 von $%2</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="36"/>
        <source>$%1</source>
        <translation>$%1</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="42"/>
        <source>iteration %1 of %2</source>
        <translation>Iteration %1 von %2</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="45"/>
        <source>iteration %1</source>
        <translation>Iteration %1</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="65"/>
        <source>Frames captured per second</source>
        <translation>Aufgenommene Bilder pro Sekunde</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="67"/>
        <source>Frames handled by Tier 0 (diff only), Tier 1 (local analysis) and Tier 2 (model)</source>
        <translation>Bilder, die Stufe 0 (nur Vergleich), Stufe 1 (lokale Analyse) und Stufe 2 (Modell) bearbeitet haben</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="68"/>
        <source>Calls to the language model and tokens used</source>
        <translation>Aufrufe des Sprachmodells und verbrauchte Tokens</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="69"/>
        <source>Cost so far against the budget</source>
        <translation>Bisherige Kosten im Verhältnis zum Budget</translation>
    </message>
    <message>
        <location filename="../ui/enginestatus.cpp" line="70"/>
        <source>Director iterations against the limit</source>
        <translation>Iterationen des Directors im Verhältnis zum Limit</translation>
    </message>
</context>
<context>
    <name>ciu::ui::EventLogModel</name>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="121"/>
        <source>Zone enter</source>
        <translation>Zone betreten</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="123"/>
        <source>Zone exit</source>
        <translation>Zone verlassen</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="125"/>
        <source>Hover</source>
        <translation>Schweben</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="127"/>
        <source>Click</source>
        <translation>Klick</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="129"/>
        <source>Typing</source>
        <translation>Tippen</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="131"/>
        <source>Brush lost</source>
        <translation>Pinsel verloren</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="133"/>
        <source>Takeover</source>
        <translation>Übernahme</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="135"/>
        <source>Tier decision</source>
        <translation>Stufenentscheidung</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="137"/>
        <source>Analysis</source>
        <translation>Analyse</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="139"/>
        <source>Model call</source>
        <translation>Modellaufruf</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="141"/>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="143"/>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="145"/>
        <source>Info</source>
        <translation>Info</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="200"/>
        <source>Time (s)</source>
        <translation>Zeit (s)</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="202"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="204"/>
        <source>Zone</source>
        <translation>Zone</translation>
    </message>
    <message>
        <location filename="../ui/eventlogmodel.cpp" line="206"/>
        <source>Details</source>
        <translation>Details</translation>
    </message>
</context>
<context>
    <name>ciu::ui::EventLogView</name>
    <message>
        <location filename="../ui/eventlogview.cpp" line="28"/>
        <source>All kinds</source>
        <translation>Alle Arten</translation>
    </message>
    <message>
        <location filename="../ui/eventlogview.cpp" line="31"/>
        <source>Event kind filter</source>
        <translation>Filter nach Ereignisart</translation>
    </message>
    <message>
        <location filename="../ui/eventlogview.cpp" line="32"/>
        <source>Filter events…</source>
        <translation>Ereignisse filtern …</translation>
    </message>
    <message>
        <location filename="../ui/eventlogview.cpp" line="34"/>
        <source>Event text filter</source>
        <translation>Textfilter für Ereignisse</translation>
    </message>
    <message>
        <location filename="../ui/eventlogview.cpp" line="128"/>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
</context>
<context>
    <name>ciu::ui::LiveView</name>
    <message>
        <location filename="../ui/liveview.cpp" line="44"/>
        <source>Live view of the target display</source>
        <translation>Live-Ansicht des Zielbildschirms</translation>
    </message>
    <message>
        <location filename="../ui/liveview.cpp" line="303"/>
        <source>Waiting for the target display…</source>
        <translation>Warte auf den Zielbildschirm …</translation>
    </message>
    <message>
        <location filename="../ui/liveview.cpp" line="350"/>
        <source>%1%2 · %3 % · %4</source>
        <translation>%1%2 · %3 % · %4</translation>
    </message>
</context>
<context>
    <name>ciu::ui::MainWindow</name>
    <message>
        <location filename="../ui/mainwindow.cpp" line="76"/>
        <source>CIU Agent</source>
        <translation>CIU Agent</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="101"/>
        <location filename="../ui/mainwindow.cpp" line="144"/>
        <source>Target: %1</source>
        <translation>Ziel: %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="128"/>
        <source>Target: sandbox %1</source>
        <translation>Ziel: Sandbox %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="131"/>
        <source>Sandbox display %1 is running.</source>
        <translation>Sandbox-Bildschirm %1 läuft.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="138"/>
        <source>Sandbox display: %1</source>
        <translation>Sandbox-Bildschirm: %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="158"/>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="206"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="207"/>
        <source>Zones</source>
        <translation>Zonen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="209"/>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="219"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="221"/>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="226"/>
        <source>&amp;Open recording…</source>
        <translation>Aufzeichnung &amp;öffnen…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="232"/>
        <location filename="../ui/mainwindow.cpp" line="667"/>
        <source>Open recording</source>
        <translation>Aufzeichnung öffnen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="236"/>
        <source>Open &amp;last recording</source>
        <translation>&amp;Letzte Aufzeichnung öffnen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="240"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="245"/>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="246"/>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="249"/>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="256"/>
        <source>&amp;Draw zone</source>
        <translation>Zone &amp;zeichnen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="261"/>
        <source>De&amp;lete zone</source>
        <translation>Zone &amp;löschen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="268"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="269"/>
        <source>Zoom &amp;in</source>
        <translation>Ver&amp;größern</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="273"/>
        <source>Zoom &amp;out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="277"/>
        <source>&amp;Fit to window</source>
        <translation>An &amp;Fenster anpassen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="282"/>
        <source>Show &amp;zones</source>
        <translation>&amp;Zonen anzeigen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="288"/>
        <source>Show cursor &amp;trail</source>
        <translation>Mauss&amp;pur anzeigen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="294"/>
        <source>&amp;Flash changes</source>
        <translation>Änderungen &amp;aufblitzen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="304"/>
        <source>&amp;Agent</source>
        <translation>&amp;Agent</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="305"/>
        <source>&amp;Run task</source>
        <translation>Aufgabe &amp;starten</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="308"/>
        <source>&amp;Pause</source>
        <translation>&amp;Pause</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="311"/>
        <source>Res&amp;ume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="314"/>
        <source>S&amp;tep</source>
        <translation>&amp;Einzelschritt</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="318"/>
        <source>&amp;Emergency stop</source>
        <translation>&amp;Not-Aus</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="324"/>
        <source>&amp;Take over</source>
        <translation>&amp;Übernehmen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="326"/>
        <source>Use mouse and keyboard in the live view to control the target display</source>
        <translation>Maus und Tastatur in der Live-Ansicht steuern den Zielbildschirm</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="329"/>
        <source>&amp;Sandbox display</source>
        <translation>&amp;Sandbox-Bildschirm</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="331"/>
        <source>Start a private display for the agent to work on</source>
        <translation>Einen privaten Bildschirm starten, auf dem der Agent arbeitet</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="335"/>
        <source>&amp;Open program in sandbox…</source>
        <translation>Programm in der Sandbox ö&amp;ffnen …</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="340"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="342"/>
        <source>&amp;About CIU Agent</source>
        <translation>Ü&amp;ber CIU Agent</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="345"/>
        <source>About CIU Agent</source>
        <translation>Über CIU Agent</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="346"/>
        <source>&lt;b&gt;CIU Agent %1&lt;/b&gt;&lt;p&gt;A desktop computer-use agent that keeps a live map of the screen&apos;s interactive zones.&lt;/p&gt;&lt;p&gt;Emergency stop: %2&lt;/p&gt;</source>
        <translation>&lt;b&gt;CIU Agent %1&lt;/b&gt;&lt;p&gt;Ein Agent zur Computerbedienung, der eine laufend aktualisierte Karte der interaktiven Zonen des Bildschirms führt.&lt;/p&gt;&lt;p&gt;Not-Aus: %2&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="354"/>
        <source>Main</source>
        <translation>Haupt</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="420"/>
        <source>The emergency-stop hotkey is not available: %1</source>
        <translation>Das Not-Aus-Tastenkürzel ist nicht verfügbar: %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="425"/>
        <source>Stop the agent now (global hotkey: %1)</source>
        <translation>Den Agenten sofort anhalten (globales Tastenkürzel: %1)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="545"/>
        <source>Emergency stop: the agent was told to stop.</source>
        <translation>Not-Aus: Der Agent wurde angewiesen anzuhalten.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="554"/>
        <source>Starting the sandbox display…</source>
        <translation>Sandbox-Bildschirm wird gestartet …</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="566"/>
        <source>Start the sandbox display first.</source>
        <translation>Starten Sie zuerst den Sandbox-Bildschirm.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="570"/>
        <source>Open program in sandbox</source>
        <translation>Programm in der Sandbox öffnen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="571"/>
        <source>Command (run on %1):</source>
        <translation>Befehl (ausgeführt auf %1):</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="578"/>
        <source>Started “%1” in the sandbox.</source>
        <translation>„%1“ wurde in der Sandbox gestartet.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="594"/>
        <source>The agent works on this display: use mouse and keyboard directly to take over.</source>
        <translation>Der Agent arbeitet auf diesem Bildschirm: Übernehmen Sie direkt mit Maus und Tastatur.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="611"/>
        <source>Takeover: %1</source>
        <translation>Übernahme: %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="624"/>
        <source>Takeover: your input in the live view goes to %1.</source>
        <translation>Übernahme: Ihre Eingaben in der Live-Ansicht gehen an %1.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="662"/>
        <source>Cannot open the recording %1: it is not a session folder or it is unreadable.</source>
        <translation>Die Aufzeichnung %1 kann nicht geöffnet werden: Der Ordner ist keine Sitzung oder nicht lesbar.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="674"/>
        <source>Replay — %1</source>
        <translation>Wiedergabe — %1</translation>
    </message>
</context>
<context>
    <name>ciu::ui::PlanModel</name>
    <message>
        <location filename="../ui/planmodel.cpp" line="43"/>
        <source>done</source>
        <translation>erledigt</translation>
    </message>
    <message>
        <location filename="../ui/planmodel.cpp" line="43"/>
        <source>current step</source>
        <translation>aktueller Schritt</translation>
    </message>
    <message>
        <location filename="../ui/planmodel.cpp" line="43"/>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
</context>
<context>
    <name>ciu::ui::ReplayEventModel</name>
    <message>
        <location filename="../ui/replay/replayeventmodel.cpp" line="72"/>
        <source>event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayeventmodel.cpp" line="73"/>
        <source>action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayeventmodel.cpp" line="74"/>
        <source>director</source>
        <translation>Director</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayeventmodel.cpp" line="114"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayeventmodel.cpp" line="116"/>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayeventmodel.cpp" line="118"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayeventmodel.cpp" line="120"/>
        <source>Zone</source>
        <translation>Zone</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayeventmodel.cpp" line="122"/>
        <source>Detail</source>
        <translation>Detail</translation>
    </message>
</context>
<context>
    <name>ciu::ui::ReplayFrameView</name>
    <message>
        <location filename="../ui/replay/replayframeview.cpp" line="12"/>
        <source>Recorded frame</source>
        <translation>Aufgezeichnetes Bild</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayframeview.cpp" line="59"/>
        <source>No frame</source>
        <translation>Kein Bild</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayframeview.cpp" line="72"/>
        <source>No video frame</source>
        <translation>Kein Videobild</translation>
    </message>
</context>
<context>
    <name>ciu::ui::ReplayViewer</name>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="40"/>
        <source>CIU Agent — Replay</source>
        <translation>CIU Agent — Wiedergabe</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="80"/>
        <source>Filter events</source>
        <translation>Ereignisse filtern</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="121"/>
        <source>Previous event (Shift+Left)</source>
        <translation>Vorheriges Ereignis (Umschalt+Links)</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="122"/>
        <source>Previous frame (Left)</source>
        <translation>Vorheriges Bild (Links)</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="123"/>
        <source>Play / pause (Space)</source>
        <translation>Abspielen / Pause (Leertaste)</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="124"/>
        <source>Next frame (Right)</source>
        <translation>Nächstes Bild (Rechts)</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="125"/>
        <source>Next event (Shift+Right)</source>
        <translation>Nächstes Ereignis (Umschalt+Rechts)</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="127"/>
        <source>Playback speed</source>
        <translation>Wiedergabegeschwindigkeit</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="145"/>
        <source>Export HTML…</source>
        <translation>HTML exportieren …</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="145"/>
        <source>Export an HTML report of the session</source>
        <translation>Einen HTML-Bericht der Sitzung exportieren</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="146"/>
        <source>Export MP4…</source>
        <translation>MP4 exportieren …</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="146"/>
        <source>Export the video with the overlay burned in</source>
        <translation>Das Video mit eingebrannter Überlagerung exportieren</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="156"/>
        <source>CIU Agent — Replay — %1</source>
        <translation>CIU Agent — Wiedergabe — %1</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="161"/>
        <source>The video cannot be decoded: %1</source>
        <translation>Das Video kann nicht dekodiert werden: %1</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="164"/>
        <source>Some of this session could not be read; the rest is shown.
• </source>
        <translation>Ein Teil dieser Sitzung konnte nicht gelesen werden; der Rest wird angezeigt.
• </translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="178"/>
        <source>This session has no video</source>
        <translation>Diese Sitzung hat kein Video</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="223"/>
        <source>Director (%1, %2): %3</source>
        <translation>Director (%1, %2): %3</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="365"/>
        <source>Export an HTML report</source>
        <translation>Einen HTML-Bericht exportieren</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="366"/>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="374"/>
        <source>Export the video with the overlay</source>
        <translation>Das Video mit Überlagerung exportieren</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="375"/>
        <source>MP4 video (*.mp4)</source>
        <translation>MP4-Video (*.mp4)</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="385"/>
        <source>Writing the HTML report…</source>
        <translation>HTML-Bericht wird geschrieben …</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="386"/>
        <source>Encoding the video with the overlay…</source>
        <translation>Video mit Überlagerung wird kodiert …</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="387"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="427"/>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../ui/replay/replayviewer.cpp" line="428"/>
        <source>The export to %1 failed: %2</source>
        <translation>Der Export nach %1 ist fehlgeschlagen: %2</translation>
    </message>
</context>
<context>
    <name>ciu::ui::SettingsDialog</name>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="32"/>
        <source>Start new tasks as a &amp;dry run</source>
        <translation>Neue Aufgaben als &amp;Probelauf starten</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="40"/>
        <source>&amp;Flash changed regions</source>
        <translation>Geänderte Bereiche &amp;aufblitzen</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="44"/>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="45"/>
        <source>Local planner (offline)</source>
        <translation>Lokaler Planer (offline)</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="46"/>
        <source>Anthropic (Claude)</source>
        <translation>Anthropic (Claude)</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="47"/>
        <source>OpenAI-compatible</source>
        <translation>OpenAI-kompatibel</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="48"/>
        <source>provider default</source>
        <translation>Standard des Anbieters</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="49"/>
        <source>official endpoint</source>
        <translation>offizieller Endpunkt</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="51"/>
        <source>unchanged</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="52"/>
        <source>Stored in the system keychain, never in the settings file</source>
        <translation>Im Schlüsselbund des Systems gespeichert, nie in der Einstellungsdatei</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="55"/>
        <source> fps</source>
        <translation> B/s</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="57"/>
        <location filename="../ui/settingsdialog.cpp" line="72"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="61"/>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="63"/>
        <source>Max</source>
        <translation>Maximal</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="64"/>
        <source>High</source>
        <translation>Hoch</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="65"/>
        <source>Medium</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="66"/>
        <source>Low</source>
        <translation>Niedrig</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="73"/>
        <source>no recording</source>
        <translation>keine Aufzeichnung</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="75"/>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="76"/>
        <location filename="../ui/settingsdialog.cpp" line="83"/>
        <source>no limit</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="77"/>
        <source>A session stops recording at this size; what was recorded is kept</source>
        <translation>Eine Sitzung beendet die Aufzeichnung bei dieser Größe; das Aufgezeichnete bleibt erhalten</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="79"/>
        <source> days</source>
        <translation> Tage</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="80"/>
        <source>forever</source>
        <translation>für immer</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="82"/>
        <source> sessions</source>
        <translation> Sitzungen</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="84"/>
        <source>xdotool syntax, e.g. ctrl+alt+End</source>
        <translation>xdotool-Schreibweise, z. B. ctrl+alt+End</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="88"/>
        <source>&amp;Provider:</source>
        <translation>&amp;Anbieter:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="89"/>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="90"/>
        <source>&amp;Base URL:</source>
        <translation>&amp;Basis-URL:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="91"/>
        <source>API &amp;key:</source>
        <translation>API-&amp;Schlüssel:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="93"/>
        <source>&amp;Speed mode:</source>
        <translation>&amp;Geschwindigkeitsmodus:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="95"/>
        <source>Emergency stop &amp;hotkey:</source>
        <translation>Not-Aus-&amp;Tastenkürzel:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="99"/>
        <source>Capture &amp;rate:</source>
        <translation>Aufnahme&amp;rate:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="100"/>
        <source>Frame &amp;ring length:</source>
        <translation>Länge des Bild&amp;rings:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="101"/>
        <source>Tier &amp;1 from:</source>
        <translation>Stufe &amp;1 ab:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="102"/>
        <source>Tier &amp;2 from:</source>
        <translation>Stufe &amp;2 ab:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="103"/>
        <source>Cursor &amp;trail:</source>
        <translation>Maus&amp;spur:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="108"/>
        <source>Maximum &amp;iterations:</source>
        <translation>Maximale &amp;Iterationen:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="109"/>
        <source>Maximum &amp;cost:</source>
        <translation>Maximale &amp;Kosten:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="110"/>
        <source>B&amp;rowse…</source>
        <translation>&amp;Durchsuchen …</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="114"/>
        <source>Recording &amp;directory:</source>
        <translation>Aufzeichnungs&amp;verzeichnis:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="115"/>
        <source>Session si&amp;ze limit:</source>
        <translation>&amp;Größengrenze je Sitzung:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="116"/>
        <source>Keep sessions &amp;for:</source>
        <translation>Sitzungen &amp;aufbewahren:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="117"/>
        <source>Keep at &amp;most:</source>
        <translation>&amp;Höchstens behalten:</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="120"/>
        <source>&amp;Agent</source>
        <translation>A&amp;gent</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="121"/>
        <source>&amp;Capture</source>
        <translation>Auf&amp;nahme</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="122"/>
        <source>&amp;Limits and recording</source>
        <translation>&amp;Limits und Aufzeichnung</translation>
    </message>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="137"/>
        <source>Recording directory</source>
        <translation>Aufzeichnungsverzeichnis</translation>
    </message>
</context>
<context>
    <name>ciu::ui::TaskConsole</name>
    <message>
        <location filename="../ui/taskconsole.cpp" line="24"/>
        <source>Idle</source>
        <translation>Untätig</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="26"/>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="28"/>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="30"/>
        <source>Stopping</source>
        <translation>Hält an</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="32"/>
        <source>Finished</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="43"/>
        <source>&amp;Dry run (plan and show, do not act)</source>
        <translation>&amp;Probelauf (planen und zeigen, nicht handeln)</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="44"/>
        <source>&amp;Run</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="45"/>
        <source>&amp;Pause</source>
        <translation>&amp;Pause</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="46"/>
        <source>Res&amp;ume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="47"/>
        <source>S&amp;tep</source>
        <translation>&amp;Einzelschritt</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="48"/>
        <source>St&amp;op</source>
        <translation>St&amp;opp</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="54"/>
        <source>Describe the task, e.g. “Type hello into the name field and press OK”</source>
        <translation>Beschreiben Sie die Aufgabe, z. B. „Tippe Hallo in das Namensfeld und drücke OK“</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="56"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="59"/>
        <source>Local planner (offline)</source>
        <translation>Lokaler Planer (offline)</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="60"/>
        <source>Anthropic (Claude)</source>
        <translation>Anthropic (Claude)</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="61"/>
        <source>OpenAI-compatible</source>
        <translation>OpenAI-kompatibel</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="64"/>
        <source>provider default</source>
        <translation>Standard des Anbieters</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="65"/>
        <source>Max (recorded sequences)</source>
        <translation>Maximal (aufgezeichnete Abläufe)</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="66"/>
        <source>High (check at transitions)</source>
        <translation>Hoch (Prüfung bei Übergängen)</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="67"/>
        <source>Medium (balanced)</source>
        <translation>Mittel (ausgewogen)</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="68"/>
        <source>Low (check every action)</source>
        <translation>Niedrig (jede Aktion prüfen)</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="73"/>
        <source>&amp;Task:</source>
        <translation>&amp;Aufgabe:</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="74"/>
        <source>&amp;Provider:</source>
        <translation>&amp;Anbieter:</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="75"/>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="76"/>
        <source>&amp;Speed:</source>
        <translation>&amp;Geschwindigkeit:</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="87"/>
        <source>Start the task (Ctrl+Return)</source>
        <translation>Die Aufgabe starten (Strg+Eingabe)</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="88"/>
        <source>Stop the agent now</source>
        <translation>Den Agenten sofort anhalten</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="89"/>
        <source>Execute one action, then pause</source>
        <translation>Eine Aktion ausführen, dann pausieren</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="96"/>
        <source>Plan</source>
        <translation>Plan</translation>
    </message>
    <message>
        <location filename="../ui/taskconsole.cpp" line="103"/>
        <source>P&amp;lan:</source>
        <translation>P&amp;lan:</translation>
    </message>
</context>
<context>
    <name>ciu::ui::TimelineWidget</name>
    <message>
        <location filename="../ui/replay/timelinewidget.cpp" line="24"/>
        <source>Timeline</source>
        <translation>Zeitleiste</translation>
    </message>
</context>
<context>
    <name>ciu::ui::ZoneCorrections</name>
    <message>
        <location filename="../ui/zonecorrections.cpp" line="125"/>
        <source>Cannot save the zone corrections: %1</source>
        <translation>Die Zonenkorrekturen können nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <location filename="../ui/zonecorrections.cpp" line="178"/>
        <source>Cannot load the zone corrections of %1: %2</source>
        <translation>Die Zonenkorrekturen von %1 können nicht geladen werden: %2</translation>
    </message>
</context>
<context>
    <name>ciu::ui::ZoneEditCommand</name>
    <message>
        <location filename="../ui/zoneeditcommands.cpp" line="46"/>
        <source>Add zone</source>
        <translation>Zone hinzufügen</translation>
    </message>
    <message>
        <location filename="../ui/zoneeditcommands.cpp" line="60"/>
        <source>Delete zone</source>
        <translation>Zone löschen</translation>
    </message>
    <message>
        <location filename="../ui/zoneeditcommands.cpp" line="74"/>
        <source>Move or resize zone</source>
        <translation>Zone verschieben oder Größe ändern</translation>
    </message>
    <message>
        <location filename="../ui/zoneeditcommands.cpp" line="92"/>
        <source>Edit zone</source>
        <translation>Zone bearbeiten</translation>
    </message>
</context>
<context>
    <name>ciu::ui::ZoneInspector</name>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="37"/>
        <source>Enabled</source>
        <translation>Aktiviert</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="38"/>
        <source>Disabled</source>
        <translation>Deaktiviert</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="39"/>
        <source>Focused</source>
        <translation>Fokussiert</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="40"/>
        <source>Hovered</source>
        <translation>Überfahren</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="41"/>
        <source>Pressed</source>
        <translation>Gedrückt</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="42"/>
        <source>Checked</source>
        <translation>Angekreuzt</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="43"/>
        <source>Unchecked</source>
        <translation>Nicht angekreuzt</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="44"/>
        <source>Expanded</source>
        <translation>Ausgeklappt</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="45"/>
        <source>Collapsed</source>
        <translation>Eingeklappt</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="71"/>
        <source>Left</source>
        <translation>Links</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="72"/>
        <source>Top</source>
        <translation>Oben</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="73"/>
        <source>Width</source>
        <translation>Breite</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="74"/>
        <source>Height</source>
        <translation>Höhe</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="83"/>
        <source>Filter zones…</source>
        <translation>Zonen filtern …</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="85"/>
        <source>Zone filter</source>
        <translation>Zonenfilter</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="96"/>
        <source>Zones</source>
        <translation>Zonen</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="102"/>
        <source>Zone label</source>
        <translation>Zonenbeschriftung</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="103"/>
        <source>Zone type</source>
        <translation>Zonentyp</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="116"/>
        <source>X</source>
        <translation>X</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="118"/>
        <source>Y</source>
        <translation>Y</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="120"/>
        <source>W</source>
        <translation>B</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="122"/>
        <source>H</source>
        <translation>H</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="127"/>
        <source>Id:</source>
        <translation>Kennung:</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="128"/>
        <source>Source:</source>
        <translation>Quelle:</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="129"/>
        <source>&amp;Label:</source>
        <translation>&amp;Beschriftung:</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="130"/>
        <source>&amp;Type:</source>
        <translation>&amp;Typ:</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="131"/>
        <source>State:</source>
        <translation>Zustand:</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="132"/>
        <source>Bounds:</source>
        <translation>Grenzen:</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="134"/>
        <source>&amp;Draw zone</source>
        <translation>Zone &amp;zeichnen</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="135"/>
        <source>Draw a new zone in the live view</source>
        <translation>Eine neue Zone in der Live-Ansicht zeichnen</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="139"/>
        <source>De&amp;lete zone</source>
        <translation>Zone &amp;löschen</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="142"/>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="145"/>
        <source>Redo</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="233"/>
        <source>(no zone selected)</source>
        <translation>(keine Zone ausgewählt)</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="243"/>
        <source>%1, confidence %2 %</source>
        <translation>%1, Konfidenz %2 %</translation>
    </message>
    <message>
        <location filename="../ui/zoneinspector.cpp" line="307"/>
        <source>New zone</source>
        <translation>Neue Zone</translation>
    </message>
</context>
<context>
    <name>ciu::ui::ZoneListModel</name>
    <message>
        <location filename="../ui/zonelistmodel.cpp" line="79"/>
        <source>Id</source>
        <translation>Kennung</translation>
    </message>
    <message>
        <location filename="../ui/zonelistmodel.cpp" line="81"/>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <location filename="../ui/zonelistmodel.cpp" line="83"/>
        <source>Label</source>
        <translation>Beschriftung</translation>
    </message>
    <message>
        <location filename="../ui/zonelistmodel.cpp" line="85"/>
        <source>Confidence</source>
        <translation>Konfidenz</translation>
    </message>
    <message>
        <location filename="../ui/zonelistmodel.cpp" line="87"/>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
</context>
<context>
    <name>ciu::ui::ZoneStyle</name>
    <message>
        <location filename="../ui/zonestyle.cpp" line="53"/>
        <source>Button</source>
        <translation>Schaltfläche</translation>
    </message>
    <message>
        <location filename="../ui/zonestyle.cpp" line="55"/>
        <source>Text field</source>
        <translation>Textfeld</translation>
    </message>
    <message>
        <location filename="../ui/zonestyle.cpp" line="57"/>
        <source>Link</source>
        <translation>Link</translation>
    </message>
    <message>
        <location filename="../ui/zonestyle.cpp" line="59"/>
        <source>Drop-down</source>
        <translation>Aufklappliste</translation>
    </message>
    <message>
        <location filename="../ui/zonestyle.cpp" line="61"/>
        <source>Check box</source>
        <translation>Ankreuzfeld</translation>
    </message>
    <message>
        <location filename="../ui/zonestyle.cpp" line="63"/>
        <source>Slider</source>
        <translation>Schieberegler</translation>
    </message>
    <message>
        <location filename="../ui/zonestyle.cpp" line="65"/>
        <source>Menu item</source>
        <translation>Menüeintrag</translation>
    </message>
    <message>
        <location filename="../ui/zonestyle.cpp" line="67"/>
        <source>Tab</source>
        <translation>Reiter</translation>
    </message>
    <message>
        <location filename="../ui/zonestyle.cpp" line="69"/>
        <source>Scroll area</source>
        <translation>Rollbereich</translation>
    </message>
    <message>
        <location filename="../ui/zonestyle.cpp" line="71"/>
        <source>Static</source>
        <translation>Statisch</translation>
    </message>
</context>
</TS>
