#pragma once

// main() of a widget test whose windows must be on a real X server: starts a private 1920x1080 Xvfb (when
// Xvfb is installed) before the application connects, gives the test private XDG data and config folders,
// and runs `Test`, constructed with the server (null without Xvfb).

#include "tests/support/xvfbserver.h"

#include <QApplication>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace ciu::test {

template<typename Test> int execOnOwnDisplay(int argc, char** argv)
{
    std::unique_ptr<XvfbServer> own;
    if (xvfbAvailable()) {
        own = std::make_unique<XvfbServer>(XvfbServer::Options{{1920, 1080}, 24, true, {}});
        if (!own->start()) {
            qWarning("cannot start Xvfb: %s", qPrintable(own->errorString()));
            return 1;
        }
        qputenv("DISPLAY", own->displayName().toLocal8Bit());
        qputenv("QT_QPA_PLATFORM", "xcb");
    }
    QTemporaryDir xdg;
    qputenv("XDG_DATA_HOME", xdg.filePath(QStringLiteral("data")).toLocal8Bit());
    qputenv("XDG_CONFIG_HOME", xdg.filePath(QStringLiteral("config")).toLocal8Bit());
    QApplication app(argc, argv);
    Test test(own.get());
    return QTest::qExec(&test, argc, argv);
}

} // namespace ciu::test
