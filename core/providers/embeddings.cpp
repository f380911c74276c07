#include "core/providers/embeddings.h"

#include <QEventLoop>
#include <QThread>

namespace ciu::director {

std::optional<QList<QList<double>>> embedBlocking(std::unique_ptr<Provider> provider,
                                                  const QStringList& texts, QString* error)
{
    auto fail = [error](const QString& message) -> std::optional<QList<QList<double>>> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (!provider)
        return fail(QStringLiteral("no provider"));
    if (texts.isEmpty())
        return QList<QList<double>>();
    ProviderResponse response;
    Provider* raw = provider.get();
    // The provider lives and dies on the thread: its network access manager is made there on first use.
    std::unique_ptr<QThread> thread(QThread::create([&provider, &texts, &response] {
        QEventLoop loop;
        QObject::connect(provider.get(), &Provider::finished, &loop,
                         [&loop, &response](quint64, const ProviderResponse& answer) {
                             response = answer;
                             loop.quit();
                         });
        ProviderRequest request;
        request.embeddingInputs = texts;
        request.purpose = QStringLiteral("embeddings");
        provider->send(request);
        loop.exec(); // the provider always finishes: its timeouts bound every attempt and the whole call
        provider.reset();
    }));
    thread->setObjectName(QStringLiteral("embeddings"));
    raw->moveToThread(thread.get());
    thread->start();
    thread->wait();
    if (!response.ok())
        return fail(response.errorMessage.isEmpty() ? toString(response.error) : response.errorMessage);
    if (response.embeddings.size() != texts.size())
        return fail(QStringLiteral("wrong vector count: %1 vectors for %2 texts")
                        .arg(response.embeddings.size())
                        .arg(texts.size()));
    return response.embeddings;
}

} // namespace ciu::director
