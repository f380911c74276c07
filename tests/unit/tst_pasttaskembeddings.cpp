// Past-task retrieval with a provider's embeddings: the fused ranking (taskembedding.h) with vectors set by
// hand, the stored vectors (kept in the task's file with model and dimension, another model's recomputed),
// BM25's order kept when the embeddings fail, texts scrubbed before they are sent; the OpenAI-compatible
// embeddings call over real HTTP to the fake server (request body, key, vectors read back), and the
// Director's TaskLearning using it. `ciu-agent tasks --similar` is tested in tests/e2e/tst_cli.cpp.

#include "core/director/pasttaskembedder.h"
#include "core/director/tasklearning.h"
#include "core/knowledge/taskmemory.h"
#include "core/model/secrets.h"
#include "core/providers/embeddings.h"
#include "core/providers/keystore.h"
#include "tests/support/fakeapiserver.h"
#include "tests/support/testzones.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <cmath>

using namespace ciu;
using ciu::test::FakeApiServer;

namespace {

const QString kModel = QStringLiteral("emb-test-1");
const QString kKey = QStringLiteral("sk-embed-test-KEY-123456789");

// Remembered tasks (newest last) and a new task that shares no word with the first.
const QString kSave = QStringLiteral("open the File menu and save the document as report.txt");
const QString kForm = QStringLiteral("type Ada into Name and click Submit");
const QString kCheck = QStringLiteral("check Subscribe then click OK");
const QString kParaphrase = QStringLiteral("keep my notes on disk");
const QString kParaphraseOk = QStringLiteral("keep my notes on disk then click OK");

const QList<double> kSaveVector{1, 0, 0};
const QList<double> kFormVector{0, 1, 0};
const QList<double> kCheckVector{0, 0, 1};
const QList<double> kParaphraseVector{0.9, 0, 0.3};

PastTask pastTask(const QString& text, int minutesAgo)
{
    PastTask t;
    t.task = text;
    t.application = QStringLiteral("fixture");
    t.planner = QStringLiteral("local");
    t.recordedAt = QDateTime::currentDateTimeUtc().addSecs(-60 * minutesAgo);
    t.stepLines = {QStringLiteral("left_click button \"OK\"")};
    t.steps = QJsonArray{QJsonObject{
        {QStringLiteral("action"), QJsonObject{{QStringLiteral("type"), QStringLiteral("left_click")}}}}};
    t.narrative = TaskMemory::narrate(t.task, t.application, t.stepLines);
    return t;
}

// Three remembered tasks: kSave (oldest), kForm, kCheck (newest); their ids in that order.
QStringList rememberThree(const QString& dir)
{
    const TaskMemory memory(dir);
    QStringList ids;
    int minutes = 30;
    for (const QString& text : {kSave, kForm, kCheck}) {
        const auto stored = memory.remember(pastTask(text, minutes));
        ids << (stored ? stored->id : QString());
        minutes -= 10;
    }
    return ids;
}

// An embedder with vectors set by hand (unknown texts: nullopt), recording every batch it was given.
struct HandEmbedder
{
    QHash<QString, QList<double>> vectors;
    QList<QStringList> batches;
    QString failure; // not empty: every call fails with it

    TextEmbedder embedder(const QString& model = kModel)
    {
        return {model,
                [this](const QStringList& texts, QString* error) -> std::optional<QList<QList<double>>> {
                    batches << texts;
                    if (!failure.isEmpty()) {
                        *error = failure;
                        return std::nullopt;
                    }
                    QList<QList<double>> out;
                    for (const QString& t : texts) {
                        if (!vectors.contains(t)) {
                            *error = QStringLiteral("no vector for \"%1\"").arg(t);
                            return std::nullopt;
                        }
                        out << vectors.value(t);
                    }
                    return out;
                }};
    }
};

HandEmbedder handVectors()
{
    HandEmbedder h;
    h.vectors = {{kSave, kSaveVector},
                 {kForm, kFormVector},
                 {kCheck, kCheckVector},
                 {kParaphrase, kParaphraseVector},
                 {kParaphraseOk, kParaphraseVector}};
    return h;
}

QJsonObject fileOf(const TaskMemory& memory, const QString& id)
{
    QFile file(memory.pathFor(id));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

QStringList idsOf(const QList<SimilarTask>& tasks)
{
    QStringList out;
    for (const SimilarTask& s : tasks)
        out << s.task.id;
    return out;
}

// A FakeApiServer on a thread of its own: the embeddings call blocks the test's thread.
class ThreadedServer
{
public:
    ThreadedServer()
    {
        m_thread.setObjectName(QStringLiteral("fakeapi"));
        m_thread.start();
        m_server = new FakeApiServer;
        m_server->moveToThread(&m_thread);
        run([this](FakeApiServer& s) {
            m_started = s.start();
            m_url = s.baseUrl();
        });
    }
    ~ThreadedServer()
    {
        m_server->deleteLater(); // on its thread, as the thread ends at the latest
        m_thread.quit();
        m_thread.wait();
    }
    bool started() const { return m_started; }
    QUrl baseUrl() const { return m_url; }
    void run(const std::function<void(FakeApiServer&)>& f)
    {
        QMetaObject::invokeMethod(
            m_server, [this, f] { f(*m_server); }, Qt::BlockingQueuedConnection);
    }
    QList<FakeApiServer::Request> requests()
    {
        QList<FakeApiServer::Request> out;
        run([&out](FakeApiServer& s) { out = s.requests(); });
        return out;
    }

private:
    QThread m_thread;
    FakeApiServer* m_server = nullptr;
    bool m_started = false;
    QUrl m_url;
};

// The provider's environment for one test, restored afterwards.
class ProviderEnvironment
{
public:
    explicit ProviderEnvironment(const QUrl& baseUrl, const QString& embeddingModel = {})
    {
        for (const char* name : kNames)
            m_saved.append({name, qgetenv(name)});
        qputenv("OPENAI_BASE_URL", baseUrl.toString().toUtf8());
        qputenv("OPENAI_API_KEY", kKey.toUtf8());
        if (embeddingModel.isEmpty())
            qunsetenv("CIU_OPENAI_EMBEDDING_MODEL");
        else
            qputenv("CIU_OPENAI_EMBEDDING_MODEL", embeddingModel.toUtf8());
    }
    ~ProviderEnvironment()
    {
        for (const auto& [name, value] : m_saved) {
            if (value.isNull())
                qunsetenv(name);
            else
                qputenv(name, value);
        }
    }

private:
    static constexpr const char* kNames[] = {"OPENAI_BASE_URL", "OPENAI_API_KEY",
                                             "CIU_OPENAI_EMBEDDING_MODEL"};
    QList<QPair<const char*, QByteArray>> m_saved;
};

director::KeychainReader noKeychain()
{
    return {};
}

} // namespace

class TestPastTaskEmbeddings : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void fusion_data();
    void fusion();
    void fusedRankingFindsAParaphrase();
    void fusedRankingOutranksSharedWords();
    void failingEmbeddingsKeepBm25Order();
    void storedVectorsAndOtherModels();
    void textsAreScrubbedBeforeSending();
    void embeddingsOverHttp();
    void embedderOnlyForOpenAiWithAModel();
    void taskLearningRanksWithEmbeddings();
    void taskLearningLogsAFailureOnce();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString tasksDir() const { return m_dir->filePath(QStringLiteral("tasks")); }
};

void TestPastTaskEmbeddings::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestPastTaskEmbeddings::fusion_data()
{
    QTest::addColumn<double>("bm25");
    QTest::addColumn<double>("cosine");
    QTest::addColumn<double>("fused");
    QTest::newRow("same text") << 1.0 << 1.0 << 1.0;
    QTest::newRow("paraphrase, no shared word") << 0.0 << 0.84 << 0.48;
    QTest::newRow("shared words, unrelated meaning") << 1.0 << 0.1 << 0.4;
    QTest::newRow("below the cosine floor") << 0.5 << 0.2 << 0.2;
    QTest::newRow("opposite") << 0.0 << -1.0 << 0.0;
}

void TestPastTaskEmbeddings::fusion()
{
    QFETCH(double, bm25);
    QFETCH(double, cosine);
    QFETCH(double, fused);
    QCOMPARE(fusion::fusedRelevance(bm25, cosine), fused);
    QCOMPARE(cosineSimilarity({1, 0}, {2, 0}), 1.0);
    QCOMPARE(cosineSimilarity({1, 0}, {0, 3}), 0.0);
    QCOMPARE(cosineSimilarity({1, 0}, {1, 0, 0}), 0.0); // dimensions differ
    QCOMPARE(cosineSimilarity({0, 0}, {1, 0}), 0.0);
}

void TestPastTaskEmbeddings::fusedRankingFindsAParaphrase()
{
    const QStringList ids = rememberThree(tasksDir());
    const TaskMemory memory(tasksDir());
    // BM25 alone cannot find it: not one word in common.
    QVERIFY(memory.similar(kParaphrase).isEmpty());
    HandEmbedder hand = handVectors();
    TaskMemory::SimilarityOptions options;
    options.embedder = hand.embedder();
    const TaskMemory::SimilarityResult found = memory.findSimilar(kParaphrase, options);
    QVERIFY2(found.embeddingError.isEmpty(), qPrintable(found.embeddingError));
    QVERIFY(found.usedEmbeddings);
    QCOMPARE(idsOf(found.tasks), QStringList{ids.at(0)});
    const SimilarTask& s = found.tasks.first();
    const double cosine = 0.9 / std::sqrt(0.9 * 0.9 + 0.3 * 0.3);
    QCOMPARE(*s.cosine, cosine);
    QCOMPARE(s.bm25Relevance, 0.0);
    QCOMPARE(s.relevance, fusion::fusedRelevance(0.0, cosine));
    // One call: the new task first, then every task without a vector, newest first.
    QCOMPARE(hand.batches, (QList<QStringList>{{kParaphrase, kCheck, kForm, kSave}}));
    QCOMPARE(found.embeddedTexts, 4);
    QVERIFY(found.taskEmbedding == (TaskEmbedding{kModel, kParaphraseVector}));
}

void TestPastTaskEmbeddings::fusedRankingOutranksSharedWords()
{
    const QStringList ids = rememberThree(tasksDir());
    const TaskMemory memory(tasksDir());
    // "click OK" is what BM25 sees: kCheck first (and kForm with "click").
    const QList<SimilarTask> bm25 = memory.similar(kParaphraseOk, 3, 0.0);
    QCOMPARE(idsOf(bm25), (QStringList{ids.at(2), ids.at(1)}));
    HandEmbedder hand = handVectors();
    TaskMemory::SimilarityOptions options;
    options.embedder = hand.embedder();
    options.floor = 0.0;
    const TaskMemory::SimilarityResult found = memory.findSimilar(kParaphraseOk, options);
    QVERIFY(found.usedEmbeddings);
    // The meaning wins: kSave first although it shares no word; then the BM25 order.
    QCOMPARE(idsOf(found.tasks), (QStringList{ids.at(0), ids.at(2), ids.at(1)}));
    QCOMPARE(found.tasks.at(1).bm25Relevance, bm25.at(0).relevance);
    QCOMPARE(found.tasks.at(1).score, bm25.at(0).score);
}

void TestPastTaskEmbeddings::failingEmbeddingsKeepBm25Order()
{
    const QStringList ids = rememberThree(tasksDir());
    const TaskMemory memory(tasksDir());
    const QList<SimilarTask> bm25 = memory.similar(kParaphraseOk, 3, 0.0);
    HandEmbedder hand = handVectors();
    hand.failure = QStringLiteral("HTTP 500 server_error: boom (after 3 attempts)");
    TaskMemory::SimilarityOptions options;
    options.embedder = hand.embedder();
    options.floor = 0.0;
    const TaskMemory::SimilarityResult found = memory.findSimilar(kParaphraseOk, options);
    QCOMPARE(found.embeddingError, hand.failure);
    QVERIFY(!found.usedEmbeddings);
    QVERIFY(!found.taskEmbedding);
    QCOMPARE(hand.batches.size(), 1);
    QCOMPARE(idsOf(found.tasks), idsOf(bm25));
    for (qsizetype i = 0; i < bm25.size(); ++i) {
        QCOMPARE(found.tasks.at(i).relevance, bm25.at(i).relevance);
        QCOMPARE(found.tasks.at(i).score, bm25.at(i).score);
        QVERIFY(!found.tasks.at(i).cosine);
    }
    // Nothing was written to the tasks.
    for (const QString& id : ids)
        QVERIFY(!fileOf(memory, id).contains(QStringLiteral("embedding")));
    // A reply with a wrong count is a failure too.
    HandEmbedder shortOne = handVectors();
    TextEmbedder broken = shortOne.embedder();
    broken.embed = [](const QStringList&, QString*) {
        return std::optional(QList<QList<double>>{{1, 0, 0}});
    };
    options.embedder = broken;
    const TaskMemory::SimilarityResult wrong = memory.findSimilar(kParaphraseOk, options);
    QCOMPARE(wrong.embeddingError, QStringLiteral("wrong vector count: 1 vectors for 4 texts"));
    QCOMPARE(idsOf(wrong.tasks), idsOf(bm25));
}

void TestPastTaskEmbeddings::storedVectorsAndOtherModels()
{
    const QStringList ids = rememberThree(tasksDir());
    const TaskMemory memory(tasksDir());
    HandEmbedder hand = handVectors();
    TaskMemory::SimilarityOptions options;
    options.embedder = hand.embedder();
    QVERIFY(memory.findSimilar(kParaphrase, options).usedEmbeddings);
    // Each vector is in its task's file, with the model and the dimension.
    const QJsonObject stored = fileOf(memory, ids.at(0)).value(QStringLiteral("embedding")).toObject();
    QCOMPARE(stored.value(QStringLiteral("model")).toString(), kModel);
    QCOMPARE(stored.value(QStringLiteral("dimension")).toInt(), 3);
    QCOMPARE(stored.value(QStringLiteral("vector")).toArray(), (QJsonArray{1, 0, 0}));
    QVERIFY(memory.find(ids.at(0))->embedding == (TaskEmbedding{kModel, kSaveVector}));
    // Next time only the new task is embedded.
    hand.batches.clear();
    QVERIFY(memory.findSimilar(kParaphraseOk, options).usedEmbeddings);
    QCOMPARE(hand.batches, (QList<QStringList>{{kParaphraseOk}}));
    // Another model: every vector is ignored and recomputed (and replaced in the files).
    hand.batches.clear();
    options.embedder = hand.embedder(QStringLiteral("emb-other"));
    QVERIFY(memory.findSimilar(kParaphrase, options).usedEmbeddings);
    QCOMPARE(hand.batches, (QList<QStringList>{{kParaphrase, kCheck, kForm, kSave}}));
    QCOMPARE(memory.find(ids.at(1))->embedding->model, QStringLiteral("emb-other"));
    // The same model name with another dimension (the server's model changed): those again, in a second call.
    PastTask form = *memory.find(ids.at(1));
    form.embedding = TaskEmbedding{QStringLiteral("emb-other"), {0.5, 0.5}};
    QVERIFY(memory.remember(form));
    hand.batches.clear();
    const TaskMemory::SimilarityResult again = memory.findSimilar(kParaphrase, options);
    QVERIFY2(again.usedEmbeddings, qPrintable(again.embeddingError));
    QCOMPARE(hand.batches, (QList<QStringList>{{kParaphrase}, {kForm}}));
    QCOMPARE(memory.find(ids.at(1))->embedding->vector, kFormVector);
    // A stored vector that does not read is no unreadable task: it is recomputed.
    QJsonObject broken = fileOf(memory, ids.at(2));
    broken.insert(QStringLiteral("embedding"),
                  QJsonObject{{QStringLiteral("model"), QStringLiteral("emb-other")},
                              {QStringLiteral("dimension"), 7},
                              {QStringLiteral("vector"), QJsonArray{1, 2}}});
    QFile file(memory.pathFor(ids.at(2)));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QJsonDocument(broken).toJson());
    file.close();
    QVERIFY(memory.load().problems.isEmpty());
    QVERIFY(!memory.find(ids.at(2))->embedding);
    hand.batches.clear();
    QVERIFY(memory.findSimilar(kParaphrase, options).usedEmbeddings);
    QCOMPARE(hand.batches, (QList<QStringList>{{kParaphrase, kCheck}}));
}

void TestPastTaskEmbeddings::textsAreScrubbedBeforeSending()
{
    const TaskMemory memory(tasksDir());
    const QString secretKey = QStringLiteral("sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789");
    QVERIFY(memory.remember(pastTask(QStringLiteral("log in with the key ") + secretKey, 5)));
    HandEmbedder hand;
    TaskMemory::SimilarityOptions options;
    options.embedder = hand.embedder();
    options.embedder.embed = [&hand](const QStringList& texts, QString*) {
        hand.batches << texts;
        return std::optional(QList<QList<double>>(texts.size(), QList<double>{1, 0}));
    };
    const TaskMemory::SimilarityResult found =
        memory.findSimilar(QStringLiteral("paste ") + secretKey + QStringLiteral(" into the field"), options);
    QVERIFY(found.usedEmbeddings);
    QCOMPARE(hand.batches.size(), 1);
    for (const QString& text : hand.batches.first())
        QVERIFY2(!text.contains(secretKey) && text.contains(QLatin1String("[redacted]")), qPrintable(text));
}

void TestPastTaskEmbeddings::embeddingsOverHttp()
{
    ThreadedServer server;
    QVERIFY(server.started());
    server.run([](FakeApiServer& s) {
        s.setEmbedding(kSave, kSaveVector);
        s.setEmbedding(kParaphrase, kParaphraseVector);
    });
    const ProviderEnvironment environment(server.baseUrl());
    const TextEmbedder embedder = pastTaskEmbedder(QStringLiteral("openai"), kModel, noKeychain());
    QCOMPARE(embedder.model, kModel);
    QString error;
    const auto vectors = embedder.embed({kParaphrase, kSave}, &error);
    QVERIFY2(vectors, qPrintable(error));
    QCOMPARE(*vectors, (QList<QList<double>>{kParaphraseVector, kSaveVector}));
    const QList<FakeApiServer::Request> requests = server.requests();
    QCOMPARE(requests.size(), 1);
    QCOMPARE(requests.first().path, QByteArray("/v1/embeddings"));
    QCOMPARE(requests.first().header("authorization"), QByteArray("Bearer " + kKey.toUtf8()));
    QCOMPARE(requests.first().json, (QJsonObject{{QStringLiteral("model"), kModel},
                                                 {QStringLiteral("input"), QJsonArray{kParaphrase, kSave}}}));
    // An HTTP error comes back as the provider's message (400: not retried).
    server.run([](FakeApiServer& s) {
        s.enqueueEmbeddings(FakeApiServer::chatError(400, QStringLiteral("invalid_request_error"),
                                                     QStringLiteral("model not found")));
    });
    QVERIFY(!embedder.embed({kSave}, &error));
    QCOMPARE(error, QStringLiteral("HTTP 400 invalid_request_error: model not found"));
    // The Anthropic provider has none: refused before anything is sent.
    director::ProviderConfig config;
    config.baseUrl = server.baseUrl();
    config.apiKey = kKey;
    config.embeddingModel = kModel;
    QVERIFY(!director::embedBlocking(director::createProvider(director::ProviderKind::Anthropic, config),
                                     {kSave}, &error));
    QCOMPARE(error, QStringLiteral("the anthropic provider has no embeddings API"));
    QCOMPARE(server.requests().size(), 2);
}

void TestPastTaskEmbeddings::embedderOnlyForOpenAiWithAModel()
{
    {
        const ProviderEnvironment environment(QUrl(QStringLiteral("http://127.0.0.1:9")));
        QVERIFY(pastTaskEmbedder(QStringLiteral("openai"), {}, noKeychain()).model.isEmpty()); // no default
        QVERIFY(pastTaskEmbedder(QStringLiteral("local"), kModel, noKeychain()).model.isEmpty());
        QVERIFY(pastTaskEmbedder(QStringLiteral("anthropic"), kModel, noKeychain()).model.isEmpty());
        QVERIFY(!pastTaskEmbedder(QStringLiteral("local"), kModel, noKeychain()).embed);
    }
    {
        const ProviderEnvironment environment(QUrl(QStringLiteral("http://127.0.0.1:9")),
                                              QStringLiteral("env-model"));
        QCOMPARE(pastTaskEmbedder(QStringLiteral("openai"), {}, noKeychain()).model,
                 QStringLiteral("env-model"));
        QCOMPARE(pastTaskEmbedder(QStringLiteral("openai"), kModel, noKeychain()).model, kModel);
        QCOMPARE(director::keystore::embeddingModel(director::ProviderKind::OpenAi, nullptr),
                 QStringLiteral("env-model"));
        QVERIFY(director::keystore::embeddingModel(director::ProviderKind::Anthropic, nullptr).isEmpty());
    }
}

namespace {
// What TaskLearning reported.
struct Reports
{
    QStringList lines;
    QStringList messages;
    QList<QJsonObject> records;

    TaskLearning::Log log()
    {
        return {[this](const QString& what, const QString& message, const QVariantMap&) {
                    lines << QStringLiteral("info ") + what;
                    messages << message;
                },
                [this](const QString& what, const QString& message, const QVariantMap&) {
                    lines << QStringLiteral("error ") + what;
                    messages << message;
                },
                [this](const QString& type, const QJsonObject& record) {
                    lines << QStringLiteral("record ") + type;
                    records << record;
                }};
    }
};

DirectorOptions openAiOptions(const QString& tasksDir)
{
    DirectorOptions o;
    o.provider = QStringLiteral("openai");
    o.embeddingModel = kModel;
    o.dryRun = false;
    o.rememberTasks = true;
    o.taskMemoryDir = tasksDir;
    return o;
}
} // namespace

void TestPastTaskEmbeddings::taskLearningRanksWithEmbeddings()
{
    const QStringList ids = rememberThree(tasksDir());
    ThreadedServer server;
    QVERIFY(server.started());
    server.run([](FakeApiServer& s) {
        s.setEmbedding(kSave, kSaveVector);
        s.setEmbedding(kForm, kFormVector);
        s.setEmbedding(kCheck, kCheckVector);
        s.setEmbedding(kParaphrase, kParaphraseVector);
    });
    const ProviderEnvironment environment(server.baseUrl());
    Reports reports;
    TaskLearning learning(reports.log());
    learning.begin(kParaphrase, openAiOptions(tasksDir()));
    QCOMPARE(idsOf(learning.similarTasks()), QStringList{ids.at(0)});
    QVERIFY(learning.pastTaskReference().contains(kSave));
    QCOMPARE(reports.lines,
             (QStringList{QStringLiteral("info similar_tasks"), QStringLiteral("record similar_tasks")}));
    QCOMPARE(reports.records.first().value(QStringLiteral("method")).toString(),
             QStringLiteral("bm25+embeddings"));
    QCOMPARE(reports.records.first().value(QStringLiteral("embedding_model")).toString(), kModel);
    const QList<FakeApiServer::Request> requests = server.requests();
    QCOMPARE(requests.size(), 1);
    QCOMPARE(requests.first().json.value(QStringLiteral("input")).toArray(),
             (QJsonArray{kParaphrase, kCheck, kForm, kSave}));
    // The task completes: it is remembered with the vector its lookup made (no second call for it).
    ProposedAction click;
    click.action.type = Action::Type::LeftClick;
    click.action.zoneId = QStringLiteral("ok");
    ActionFlight flight;
    flight.proposed = click;
    flight.sent = click.action;
    flight.mapBefore =
        std::make_shared<const ZoneMap>(1, 0, QSize(800, 600),
                                        QList<Zone>{test::zone(QStringLiteral("ok"), ZoneType::Button,
                                                               QStringLiteral("OK"), QRect(10, 10, 80, 30))});
    learning.noteDispatched(flight);
    ActionOutcome executed;
    executed.status = ActionOutcome::Status::Executed;
    executed.result.success = true;
    learning.noteOutcome(click, executed);
    learning.completed(QStringLiteral("openai"));
    QVERIFY(!learning.rememberedTaskId().isEmpty());
    const std::optional<PastTask> remembered = TaskMemory(tasksDir()).find(learning.rememberedTaskId());
    QVERIFY(remembered && remembered->embedding);
    QVERIFY(*remembered->embedding == (TaskEmbedding{kModel, kParaphraseVector}));
    QCOMPARE(server.requests().size(), 1);
    // The same with the local planner: BM25 alone, nothing sent.
    Reports offline;
    TaskLearning local(offline.log());
    DirectorOptions o = openAiOptions(tasksDir());
    o.provider = QStringLiteral("local");
    local.begin(kParaphrase, o);
    QCOMPARE(idsOf(local.similarTasks()), QStringList{learning.rememberedTaskId()}); // the same text
    QVERIFY(!offline.lines.contains(QStringLiteral("info past_task_embeddings_failed")));
    QCOMPARE(server.requests().size(), 1);
}

void TestPastTaskEmbeddings::taskLearningLogsAFailureOnce()
{
    QVERIFY(!rememberThree(tasksDir()).contains(QString()));
    ThreadedServer server;
    QVERIFY(server.started());
    server.run([](FakeApiServer& s) {
        s.enqueueEmbeddings(FakeApiServer::chatError(404, QStringLiteral("not_found_error"),
                                                     QStringLiteral("no such model")));
    });
    const ProviderEnvironment environment(server.baseUrl());
    Reports reports;
    TaskLearning learning(reports.log());
    learning.begin(kParaphraseOk, openAiOptions(tasksDir()));
    // BM25's answer, as offline; the failure said once.
    const QList<SimilarTask> bm25 = TaskMemory(tasksDir()).similar(kParaphraseOk);
    QCOMPARE(idsOf(learning.similarTasks()), idsOf(bm25));
    QCOMPARE(reports.lines.count(QStringLiteral("info past_task_embeddings_failed")), 1);
    QCOMPARE(
        reports.messages.first(),
        QStringLiteral("past tasks ranked by BM25 alone: the emb-test-1 embeddings call failed: HTTP 404 "
                       "not_found_error: no such model"));
    QCOMPARE(server.requests().size(), 1);
}

QTEST_GUILESS_MAIN(TestPastTaskEmbeddings)
#include "tst_pasttaskembeddings.moc"
