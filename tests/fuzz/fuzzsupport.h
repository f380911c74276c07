#pragma once

// Shared by the libFuzzer targets of tests/fuzz: a Qt application object for code that needs one, quiet
// logging (a parser that warns about every bad input would spend the fuzzer's time printing), and the input
// split into the pieces a target feeds one by one.

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QLoggingCategory>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ciu::fuzz {

// Drops every message but a fatal one (which still aborts: a finding).
inline void quietMessages(QtMsgType type, const QMessageLogContext&, const QString& message)
{
    if (type == QtFatalMsg) {
        fprintf(stderr, "fatal: %s\n", message.toLocal8Bit().constData());
        abort();
    }
}

// Call from LLVMFuzzerInitialize: one QCoreApplication for the whole run, offscreen, quiet.
inline void initialize(int* argc, char*** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(quietMessages);
    // Never destroyed: libFuzzer leaves through exit(), after which Qt's globals are already gone.
    static QCoreApplication* app = nullptr;
    if (!app)
        app = new QCoreApplication(*argc, *argv);
}

inline QByteArray bytes(const uint8_t* data, size_t size)
{
    return QByteArray(reinterpret_cast<const char*>(data), qsizetype(size));
}

// The input as the chunks a stream could deliver: the first byte is a chunk size (1..256), the rest is cut
// into chunks of that size. Parsers that keep state between reads must give the same result for any cut.
inline QList<QByteArray> chunks(const QByteArray& input)
{
    QList<QByteArray> out;
    if (input.isEmpty())
        return out;
    const qsizetype size = qsizetype(static_cast<unsigned char>(input.at(0))) + 1;
    for (qsizetype i = 1; i < input.size(); i += size)
        out << input.mid(i, size);
    return out;
}

} // namespace ciu::fuzz
