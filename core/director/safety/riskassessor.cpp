#include "core/director/safety/riskassessor.h"

#include "platform/keys.h"

#include <QRegularExpression>

#include <algorithm>

namespace ciu::safety {
namespace {

using platform::Keysym;

// A key combo as a set of lower-case canonical names with left/right modifiers merged.
QStringList comboNames(const platform::KeyCombo& combo)
{
    QStringList names;
    auto add = [&](Keysym k) {
        QString n = platform::keysymName(k).toLower();
        if (n.startsWith(QLatin1String("control")))
            n = QStringLiteral("ctrl");
        else if (n.startsWith(QLatin1String("alt")) || n.startsWith(QLatin1String("meta")))
            n = QStringLiteral("alt");
        else if (n.startsWith(QLatin1String("shift")))
            n = QStringLiteral("shift");
        else if (n.startsWith(QLatin1String("super")) || n.startsWith(QLatin1String("hyper")))
            n = QStringLiteral("super");
        else if (n == QLatin1String("kp_delete"))
            n = QStringLiteral("delete");
        names << n;
    };
    for (Keysym m : combo.modifiers)
        add(m);
    add(combo.key);
    names.removeDuplicates();
    std::sort(names.begin(), names.end());
    return names;
}

struct RiskyCombo
{
    QStringList keys; // sorted
    const char* reason;
};

const QList<RiskyCombo>& riskyCombos()
{
    static const QList<RiskyCombo> combos = [] {
        const QList<std::pair<QStringList, const char*>> raw = {
            {{QStringLiteral("alt"), QStringLiteral("f4")}, "closes the active window (alt+F4)"},
            {{QStringLiteral("ctrl"), QStringLiteral("alt"), QStringLiteral("delete")},
             "system menu (ctrl+alt+Delete)"},
            {{QStringLiteral("ctrl"), QStringLiteral("alt"), QStringLiteral("backspace")},
             "kills the X server (ctrl+alt+BackSpace)"},
            {{QStringLiteral("ctrl"), QStringLiteral("shift"), QStringLiteral("delete")},
             "clears history or deletes permanently"},
            {{QStringLiteral("shift"), QStringLiteral("delete")}, "deletes permanently (shift+Delete)"},
            {{QStringLiteral("super"), QStringLiteral("l")}, "locks the session (super+l)"},
            {{QStringLiteral("ctrl"), QStringLiteral("alt"), QStringLiteral("l")},
             "locks the session (ctrl+alt+l)"},
            {{QStringLiteral("ctrl"), QStringLiteral("q")}, "quits the application (ctrl+q)"},
            {{QStringLiteral("ctrl"), QStringLiteral("w")}, "closes the window or tab (ctrl+w)"},
            {{QStringLiteral("ctrl"), QStringLiteral("alt"), QStringLiteral("t")},
             "opens a terminal (ctrl+alt+t)"},
            {{QStringLiteral("ctrl"), QStringLiteral("alt"), QStringLiteral("f1")},
             "switches to a virtual console"},
            {{QStringLiteral("ctrl"), QStringLiteral("alt"), QStringLiteral("f2")},
             "switches to a virtual console"},
            {{QStringLiteral("ctrl"), QStringLiteral("alt"), QStringLiteral("f3")},
             "switches to a virtual console"},
            {{QStringLiteral("sys_req")}, "magic SysRq"},
            {{QStringLiteral("alt"), QStringLiteral("sys_req")}, "magic SysRq"},
            {{QStringLiteral("alt"), QStringLiteral("print")}, "magic SysRq"},
        };
        QList<RiskyCombo> out;
        for (auto [keys, reason] : raw) {
            std::sort(keys.begin(), keys.end());
            out.append({keys, reason});
        }
        return out;
    }();
    return combos;
}

struct Pattern
{
    QRegularExpression re;
    const char* reason;
};

const QList<Pattern>& commandPatterns()
{
    auto re = [](const char* p) {
        return QRegularExpression(QString::fromLatin1(p), QRegularExpression::CaseInsensitiveOption);
    };
    static const QList<Pattern> patterns = {
        {re("(^|[\\s;&|`('\"])rm\\s"), "a file deletion command (rm)"},
        {re("(^|[\\s;&|`('\"])rmdir\\s"), "a directory deletion command (rmdir)"},
        {re("(^|[\\s;&|`('\"])(del|erase|rd)\\s"), "a file deletion command (del)"},
        {re("(^|[\\s;&|`('\"])(format|mkfs(\\.\\w+)?|fdisk|parted|wipefs)(\\s|$)"),
         "a disk formatting command"},
        {re("(^|[\\s;&|`('\"])dd\\s+.*\\bof="), "a raw disk write (dd)"},
        {re("(^|[\\s;&|`('\"])(shutdown|reboot|poweroff|halt|init\\s+[06])(\\s|$)"),
         "a shutdown or reboot command"},
        {re("(^|[\\s;&|`('\"])systemctl\\s+(poweroff|reboot|halt|suspend|hibernate)"),
         "a shutdown or reboot command"},
        {re("(^|[\\s;&|`('\"])(sudo|su|doas|pkexec)(\\s|$)"), "a command run with root rights"},
        {re("(curl|wget|fetch)\\b[^|]*\\|\\s*(sudo\\s+)?(ba|z|da|k)?sh\\b"),
         "downloads and runs a script (curl | sh)"},
        {re("(^|[\\s;&|`('\"])chmod\\s+(-R\\s+)?[0-7]*7{2}"), "makes files writable by everyone (chmod 777)"},
        {re("(^|[\\s;&|`('\"])chown\\s+-R"), "changes ownership recursively"},
        {re(":\\(\\)\\s*\\{\\s*:\\|:&\\s*\\};:"), "a fork bomb"},
        {re(">\\s*/dev/(sd|nvme|hd)"), "writes to a raw disk device"},
        {re("(^|[\\s;&|`('\"])(kill|pkill|killall)\\s+(-9\\s+)?(-1|1)(\\s|$)"), "kills every process"},
        {re("(^|[\\s;&|`('\"])git\\s+push\\s+.*(--force|-f)(\\s|$)"), "a forced git push"},
        {re("\\bdrop\\s+(table|database)\\b"), "a database deletion (DROP)"},
        {re("(^|[\\s;&|`('\"])(crontab\\s+-r|history\\s+-c)"), "erases configuration or history"},
        {re("\\bremove-item\\b|\\bstop-computer\\b|\\brestart-computer\\b"),
         "a destructive PowerShell command"},
    };
    return patterns;
}

} // namespace

QString toString(Risk::Category category)
{
    switch (category) {
    case Risk::Category::KeyCombo:
        return QStringLiteral("key_combo");
    case Risk::Category::TypedCommand:
        return QStringLiteral("typed_command");
    case Risk::Category::Credential:
        return QStringLiteral("credential");
    case Risk::Category::DestructiveTarget:
        return QStringLiteral("destructive_target");
    case Risk::Category::SystemWindow:
        return QStringLiteral("system_window");
    case Risk::Category::LaunchCommand:
        return QStringLiteral("launch_command");
    }
    return {};
}

QString Risk::summary() const
{
    QStringList reasons;
    for (const Finding& f : findings)
        reasons << f.reason;
    return reasons.join(QStringLiteral("; "));
}

QString RiskAssessor::riskyKeyCombo(const QString& keys)
{
    const auto parsed = platform::parseKeySequence(keys);
    if (!parsed.ok())
        return {};
    for (const platform::KeyCombo& combo : parsed.combos) {
        const QStringList names = comboNames(combo);
        for (const RiskyCombo& risky : riskyCombos()) {
            if (names == risky.keys)
                return QString::fromLatin1(risky.reason);
        }
    }
    return {};
}

QString RiskAssessor::riskyTypedText(const QString& text)
{
    for (const Pattern& p : commandPatterns()) {
        if (p.re.match(text).hasMatch())
            return QString::fromLatin1(p.reason);
    }
    return {};
}

QString RiskAssessor::destructiveLabel(const QString& label)
{
    static const QRegularExpression re(
        QStringLiteral(
            "\\b(delete|remove|erase|wipe|destroy|discard|format|uninstall|reset|send|submit payment|pay|"
            "buy|purchase|order now|place order|checkout|check out|transfer|confirm purchase|"
            "unsubscribe|empty trash|empty bin|shut ?down|restart|reboot|log ?out|sign ?out|"
            "accept terms|i agree|publish)\\b"),
        QRegularExpression::CaseInsensitiveOption);
    const QString l = QString(label).remove(QLatin1Char('&'));
    const auto m = re.match(l);
    if (!m.hasMatch())
        return {};
    return QStringLiteral("acts on \"%1\" (%2)").arg(label.trimmed(), m.captured(1).toLower());
}

QString RiskAssessor::systemWindow(const QString& titleOrClass)
{
    static const QRegularExpression re(
        QStringLiteral(
            "task manager|control panel|registry editor|regedit|system settings|gnome-control-center|"
            "systemsettings|gparted|disks|synaptic|software updater|policykit|polkit|authentication "
            "required|lxqt-admin|users and groups|firewall|terminal.*root|root@"),
        QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(titleOrClass);
    if (!m.hasMatch())
        return {};
    return QStringLiteral("targets a system window (%1)").arg(titleOrClass.trimmed());
}

bool RiskAssessor::isCredentialLabel(const QString& label)
{
    static const QRegularExpression credential(
        QStringLiteral("pass(word|phrase|code)?|pin\\b|secret|token|api key|credit card|cvv"),
        QRegularExpression::CaseInsensitiveOption);
    return credential.match(label).hasMatch();
}

bool RiskAssessor::looksLikeSecret(const QString& text)
{
    static const QList<QRegularExpression> secrets = {
        QRegularExpression(QStringLiteral("\\bsk-(ant-)?[A-Za-z0-9_-]{16,}")), // API keys
        QRegularExpression(QStringLiteral("\\b(ghp|gho|ghu|ghs|glpat)[-_][A-Za-z0-9_]{16,}")),
        QRegularExpression(QStringLiteral("\\bAKIA[0-9A-Z]{16}\\b")), // AWS access key
        QRegularExpression(QStringLiteral("-----BEGIN [A-Z ]*PRIVATE KEY-----")),
        QRegularExpression(QStringLiteral("\\b(password|passwd|pwd|secret|token|api[_-]?key)\\s*[:=]"),
                           QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("\\b(?:\\d[ -]?){13,19}\\b")), // card numbers
    };
    for (const QRegularExpression& re : secrets) {
        if (re.match(text).hasMatch())
            return true;
    }
    return false;
}

Risk RiskAssessor::assess(const Action& action, const RiskContext& context)
{
    Risk risk;
    auto add = [&](Risk::Category c, const QString& reason) { risk.findings.append({c, reason}); };

    switch (action.type) {
    case Action::Type::Key:
    case Action::Type::HoldKey:
        if (const QString r = riskyKeyCombo(action.text); !r.isEmpty())
            add(Risk::Category::KeyCombo, r);
        break;
    case Action::Type::TypeText:
    case Action::Type::ClipboardWrite:
    case Action::Type::Paste:
        if (const QString r = riskyTypedText(action.text); !r.isEmpty())
            add(Risk::Category::TypedCommand, QStringLiteral("types %1").arg(r));
        if (looksLikeSecret(action.text))
            add(Risk::Category::Credential,
                QStringLiteral("the text looks like a password, key or card number"));
        break;
    case Action::Type::Launch:
        if (const QString r = riskyTypedText(action.text); !r.isEmpty())
            add(Risk::Category::LaunchCommand, QStringLiteral("launches %1").arg(r));
        if (const QString r = systemWindow(action.text); !r.isEmpty())
            add(Risk::Category::SystemWindow, QStringLiteral("launches a system tool"));
        break;
    default:
        break;
    }
    if (!action.heldKeys.isEmpty()) {
        if (const QString r = riskyKeyCombo(action.heldKeys); !r.isEmpty())
            add(Risk::Category::KeyCombo, r);
    }

    if (const Zone* z = context.target) {
        const bool typing = action.type == Action::Type::TypeText || action.type == Action::Type::Paste;
        if (z->isPassword && (typing || action.isClick()))
            add(Risk::Category::Credential, QStringLiteral("enters a password field (\"%1\")").arg(z->label));
        else if (typing && z->type == ZoneType::TextField && isCredentialLabel(z->label))
            add(Risk::Category::Credential,
                QStringLiteral("enters a credential field (\"%1\")").arg(z->label));
        if (action.isClick() || action.type == Action::Type::LeftMouseUp) {
            // A text or a field whose words are destructive is no button; but only the tree or the user
            // knows the type for sure: vision takes a plain button for a field or a text often enough
            // (xmessage's "Discard" read as a text field), and a click on it is treated as a button's.
            const bool typeKnown = z->source == ZoneSource::Accessibility || z->source == ZoneSource::User;
            const bool notAButton =
                typeKnown && (z->type == ZoneType::Static || z->type == ZoneType::TextField);
            if (const QString r = destructiveLabel(z->label); !r.isEmpty() && !notAButton)
                add(Risk::Category::DestructiveTarget, r);
        }
        if (const QString r = systemWindow(z->application); !r.isEmpty())
            add(Risk::Category::SystemWindow, r);
    }
    if (const Zone* z = context.target2) {
        if (const QString r = destructiveLabel(z->label); !r.isEmpty())
            add(Risk::Category::DestructiveTarget, QStringLiteral("drops onto \"%1\"").arg(z->label));
    }
    for (const QString& w : {context.windowTitle, context.windowClass}) {
        if (w.isEmpty())
            continue;
        if (const QString r = systemWindow(w); !r.isEmpty()) {
            add(Risk::Category::SystemWindow, r);
            break;
        }
    }
    return risk;
}

} // namespace ciu::safety
