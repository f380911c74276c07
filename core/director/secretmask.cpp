#include "core/director/secretmask.h"

#include "core/director/commandscript.h"
#include "core/director/safety/riskassessor.h"
#include "core/model/action.h"

#include <QJsonArray>

#include <algorithm>

namespace ciu {

QStringList secretsOfTask(const QString& task)
{
    const ScriptParseResult parsed = parseScript(task);
    if (!parsed.ok())
        return {};
    QStringList secrets;
    for (const ScriptCommand& c : parsed.commands) {
        const bool typing = c.verb == ScriptCommand::Verb::Type || c.verb == ScriptCommand::Verb::Append;
        if (typing && !c.text.isEmpty() && safety::RiskAssessor::isCredentialLabel(c.target) &&
            !secrets.contains(c.text))
            secrets << c.text;
    }
    return secrets;
}

SecretMask::SecretMask(QStringList secrets)
{
    for (const QString& s : secrets)
        add(s);
}

void SecretMask::add(const QString& secret)
{
    if (secret.size() < kMinLength || m_secrets.contains(secret))
        return;
    m_secrets << secret;
    std::stable_sort(m_secrets.begin(), m_secrets.end(),
                     [](const QString& a, const QString& b) { return a.size() > b.size(); });
}

QString SecretMask::masked(QString text) const
{
    for (const QString& s : m_secrets)
        text.replace(s, Action::maskedText());
    return text;
}

QJsonValue SecretMask::masked(const QJsonValue& value) const
{
    if (m_secrets.isEmpty())
        return value;
    switch (value.type()) {
    case QJsonValue::String:
        return masked(value.toString());
    case QJsonValue::Array: {
        QJsonArray out;
        for (const QJsonValue& v : value.toArray())
            out.append(masked(v));
        return out;
    }
    case QJsonValue::Object:
        return masked(value.toObject());
    default:
        return value;
    }
}

QJsonObject SecretMask::masked(const QJsonObject& object) const
{
    if (m_secrets.isEmpty())
        return object;
    QJsonObject out;
    for (auto it = object.begin(); it != object.end(); ++it)
        out.insert(masked(it.key()), masked(it.value()));
    return out;
}

QString maskedTask(const QString& task)
{
    return SecretMask(secretsOfTask(task)).masked(task);
}

} // namespace ciu
