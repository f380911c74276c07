#pragma once

// What the FakeApiServer's HTTP side and its reply builders share: the counter behind the fake
// request and message ids ("req_fake_N", "msg_fake_N"), so ids stay unique across both.

namespace ciu::test::wire {

int nextId();

} // namespace ciu::test::wire
