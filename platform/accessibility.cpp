// The plain parts of the accessibility interface: the node's path text and the null backend.

#include "platform/accessibility.h"

namespace ciu::platform {

QString AccessibleNode::pathString() const
{
    QStringList parts;
    parts.reserve(childPath.size());
    for (int index : childPath)
        parts << QString::number(index);
    return parts.join(QLatin1Char('/'));
}

NullAccessibility::NullAccessibility(QString reason, QObject* parent)
    : Accessibility(parent)
    , m_reason(std::move(reason))
    , m_empty(std::make_shared<const AccessibilitySnapshot>())
{
}

} // namespace ciu::platform
