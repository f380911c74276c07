#pragma once

#include "core/model/action.h"
#include "core/model/zone.h"

#include <QStringList>

namespace ciu::safety {

// Why an action needs a human's confirmation.
struct Risk
{
    enum class Category : quint8
    {
        KeyCombo = 1,      // alt+F4, ctrl+alt+Delete, super+l ...
        TypedCommand,      // rm, del, format, shutdown, reboot, sudo, curl|sh ...
        Credential,        // password fields, typing something that looks like a secret
        DestructiveTarget, // Delete, Remove, Send, Pay, Buy, Format, Erase, Confirm purchase ...
        SystemWindow,      // Task Manager, Control Panel, Registry Editor, system settings, terminals as root
        LaunchCommand,     // launching a program with a dangerous command line
    };
    struct Finding
    {
        Category category;
        QString reason; // for people: "types a shell command (rm -rf)"
    };
    QList<Finding> findings;

    bool isHigh() const { return !findings.isEmpty(); }
    QString summary() const; // the reasons joined by "; "
};

QString toString(Risk::Category category);

// What the assessment knows about where the action lands.
struct RiskContext
{
    const Zone* target = nullptr;  // the zone acted on (null: raw coordinates or no zone)
    const Zone* target2 = nullptr; // drag destination
    QString windowTitle;           // of the window under the action, when known
    QString windowClass;
};

class RiskAssessor
{
public:
    static Risk assess(const Action& action, const RiskContext& context = {});

    // The parts, exposed for tests.
    static QString riskyKeyCombo(const QString& keys);        // empty: none
    static QString riskyTypedText(const QString& text);       // empty: none
    static QString destructiveLabel(const QString& label);    // empty: none
    static QString systemWindow(const QString& titleOrClass); // empty: none
    static bool looksLikeSecret(const QString& text);
    // A field label that asks for a credential ("Password", "PIN", "API key"): what is typed there is secret.
    static bool isCredentialLabel(const QString& label);
};

} // namespace ciu::safety
