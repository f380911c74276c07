#include "tests/support/fakeapiserver.h"

#include "tests/support/fakeapiwire.h"

#include <QEventLoop>
#include <QHostAddress>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace ciu::test {

namespace {
QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 307:
        return "Temporary Redirect";
    case 308:
        return "Permanent Redirect";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 413:
        return "Payload Too Large";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 529:
        return "Overloaded";
    default:
        return "Status";
    }
}

} // namespace

FakeApiServer::FakeApiServer(QObject* parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &FakeApiServer::onNewConnection);
}

FakeApiServer::~FakeApiServer() = default;

bool FakeApiServer::start()
{
    return m_server->isListening() || m_server->listen(QHostAddress::LocalHost, 0);
}

quint16 FakeApiServer::port() const
{
    return m_server->serverPort();
}

QUrl FakeApiServer::baseUrl() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(port());
    return url;
}

bool FakeApiServer::waitForRequests(qsizetype count, int timeoutMs)
{
    if (m_requests.size() >= count)
        return true;
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(this, &FakeApiServer::requestReceived, &loop, [&] {
        if (m_requests.size() >= count)
            loop.quit();
    });
    timeout.start(timeoutMs);
    loop.exec();
    return m_requests.size() >= count;
}

void FakeApiServer::reset()
{
    m_steps.clear();
    m_requests.clear();
    m_embeddingSteps.clear();
}

QList<FakeApiServer::Request> FakeApiServer::requestsTo(const QByteArray& path) const
{
    QList<Request> out;
    for (const Request& r : m_requests) {
        if (r.path == path)
            out.append(r);
    }
    return out;
}

FakeApiServer::Step FakeApiServer::embeddingsStep(const Request& request)
{
    if (!m_embeddingSteps.isEmpty())
        return m_embeddingSteps.takeFirst();
    const QJsonValue input = request.json.value(QStringLiteral("input"));
    QStringList texts;
    if (input.isString()) {
        texts.append(input.toString());
    } else {
        for (const QJsonValue& v : input.toArray())
            texts.append(v.toString());
    }
    const QString model = request.json.value(QStringLiteral("model")).toString();
    if (texts.isEmpty() || model.isEmpty())
        return chatError(400, QStringLiteral("invalid_request_error"),
                         QStringLiteral("fake server: an embeddings request needs \"model\" and \"input\""));
    QList<QList<double>> vectors;
    qint64 tokens = 0;
    for (const QString& text : std::as_const(texts)) {
        vectors.append(m_embeddings.contains(text) ? m_embeddings.value(text) : defaultEmbedding(text));
        tokens += text.split(QLatin1Char(' '), Qt::SkipEmptyParts).size();
    }
    return embeddingsReply(vectors, model, tokens);
}

void FakeApiServer::onNewConnection()
{
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        m_connectionIds.insert(socket, ++m_connections);
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); // small SSE writes go out at once
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_buffers.remove(socket);
            m_connectionIds.remove(socket);
            socket->deleteLater();
        });
    }
}

void FakeApiServer::onReadyRead(QTcpSocket* socket)
{
    QByteArray& buffer = m_buffers[socket];
    buffer.append(socket->readAll());
    while (true) {
        const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;
        const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
        Request request;
        const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
        request.method = first.value(0);
        request.path = first.value(1);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines[i].trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon > 0)
                request.headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
        }
        const qsizetype length = request.headers.value("content-length", "0").toLongLong();
        if (buffer.size() < headerEnd + 4 + length)
            return; // the body is still coming
        request.body = buffer.mid(headerEnd + 4, length);
        buffer.remove(0, headerEnd + 4 + length);
        request.json = QJsonDocument::fromJson(request.body).object();
        request.connection = m_connectionIds.value(socket);
        m_requests.append(request);
        emit requestReceived(int(m_requests.size()));
        respond(socket, request);
    }
}

void FakeApiServer::respond(QTcpSocket* socket, const Request& request)
{
    Step step;
    std::optional<Step> answered;
    if (request.path == "/v1/embeddings")
        answered = embeddingsStep(request);
    else if (m_steps.isEmpty() && m_responder)
        answered = m_responder(request);
    if (answered) {
        step = *answered;
    } else if (m_steps.isEmpty()) {
        step = error(
            500, QStringLiteral("api_error"),
            QStringLiteral("fake server: no scripted reply for %1").arg(QString::fromLatin1(request.path)));
    } else {
        step = m_steps.takeFirst();
    }
    const bool keepAlive = request.header("connection").toLower() != "close";
    QPointer<QTcpSocket> guard(socket);
    if (step.delayMs > 0) {
        QTimer::singleShot(step.delayMs, this,
                           [this, guard, step, keepAlive] { writeStep(guard, step, keepAlive); });
    } else {
        writeStep(guard, step, keepAlive);
    }
}

void FakeApiServer::writeStep(QPointer<QTcpSocket> socket, const Step& step, bool keepAlive)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return;
    if (step.kind == Step::Kind::Drop) {
        socket->abort();
        return;
    }
    if (step.kind == Step::Kind::Hang)
        return;
    QByteArray head =
        "HTTP/1.1 " + QByteArray::number(step.status) + ' ' + reasonPhrase(step.status) + "\r\n";
    bool hasRequestId = false;
    for (const auto& [name, value] : step.headers) {
        head += name + ": " + value + "\r\n";
        if (name.toLower() == "request-id")
            hasRequestId = true;
    }
    if (!hasRequestId) {
        const QByteArray id = "req_fake_" + QByteArray::number(wire::nextId());
        head += "request-id: " + id + "\r\n";
        head += "x-request-id: " + id + "\r\n";
    }
    if (!step.contentType.isEmpty())
        head += "content-type: " + step.contentType + "\r\n";
    head += keepAlive ? "connection: keep-alive\r\n" : "connection: close\r\n";
    if (step.kind == Step::Kind::Stream) {
        head += "transfer-encoding: chunked\r\ncache-control: no-cache\r\n\r\n";
        socket->write(head);
        socket->flush();
        writeChunks(socket, step.chunks, step.chunkIntervalMs, keepAlive, step.stallAfterChunks);
        return;
    }
    head += "content-length: " +
            QByteArray::number(step.declaredLength >= 0 ? step.declaredLength : step.body.size()) +
            "\r\n\r\n";
    socket->write(head + step.body);
    socket->flush();
    if (!keepAlive)
        socket->disconnectFromHost();
}

void FakeApiServer::writeChunks(QPointer<QTcpSocket> socket, QList<QByteArray> chunks, int intervalMs,
                                bool keepAlive, bool stall)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return;
    if (chunks.isEmpty() && stall)
        return; // silence: no terminating chunk, the connection stays open
    if (chunks.isEmpty()) {
        socket->write("0\r\n\r\n");
        socket->flush();
        if (!keepAlive)
            socket->disconnectFromHost();
        return;
    }
    const QByteArray chunk = chunks.takeFirst();
    if (!chunk.isEmpty()) {
        socket->write(QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n");
        socket->flush();
    }
    QTimer::singleShot(intervalMs, this,
                       [this, socket, chunks = std::move(chunks), intervalMs, keepAlive, stall] {
                           writeChunks(socket, chunks, intervalMs, keepAlive, stall);
                       });
}

} // namespace ciu::test
