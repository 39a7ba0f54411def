// Vocab: the hash index, heterogeneous lookup, and the lazy forms (numbered labels, from_unique's deferred index).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/vocab.hpp"

// Counts this binary's operator new calls while `counting` is set (the move test below wants none).
namespace test_vocab {
std::atomic<bool> counting{false};
std::atomic<int> allocations{0};
}  // namespace test_vocab

void* operator new(std::size_t n) {
  if (test_vocab::counting.load()) test_vocab::allocations.fetch_add(1);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t& /*tag*/) noexcept {
  if (test_vocab::counting.load()) test_vocab::allocations.fetch_add(1);
  return std::malloc(n == 0 ? 1 : n);
}
// Every delete that can free what these return (the array, aligned forms are left to the library: they pair up).
// gcc, inlining these, sees free() of what operator new returned: here that is the pairing itself.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t /*n*/) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t& /*tag*/) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace test_vocab {

using lumen::Id;
using lumen::Vocab;

TEST(Vocab, AddFindAndDuplicates) {
  Vocab v;
  EXPECT_EQ(v.add("cat"), Id{0});
  EXPECT_EQ(v.add("dog", 7), Id{1});
  EXPECT_FALSE(v.add("cat").has_value());
  EXPECT_EQ(v.find("dog"), Id{1});
  EXPECT_FALSE(v.find("cow").has_value());
  EXPECT_TRUE(v.has_counts());
  EXPECT_EQ(v.count(0), 0u);
  EXPECT_EQ(v.count(1), 7u);
  EXPECT_EQ(v.size(), 2u);
}

TEST(Vocab, ManyTokensSurviveGrowth) {
  Vocab v;
  for (int i = 0; i < 20000; ++i) ASSERT_EQ(v.add("w" + std::to_string(i) + std::string(i % 13, 'x')), Id{i});
  for (int i = 0; i < 20000; ++i) ASSERT_EQ(v.find("w" + std::to_string(i) + std::string(i % 13, 'x')), Id{i});
  EXPECT_FALSE(v.find("w20000").has_value());
  EXPECT_FALSE(v.find("").has_value());
  EXPECT_EQ(v.add(""), Id{20000});  // the empty string is a token like any other
  EXPECT_EQ(v.find(""), Id{20000});
}

TEST(Vocab, HeterogeneousLookupTakesAView) {
  Vocab v;
  v.add("hello");
  const std::string line = "say hello world";
  const std::string_view word = std::string_view(line).substr(4, 5);  // not NUL-terminated
  EXPECT_EQ(v.find(word), Id{0});
  EXPECT_TRUE(v.contains(word));
  EXPECT_FALSE(v.contains(std::string_view(line).substr(4, 4)));
  std::unordered_map<std::string, int, lumen::StringHash, std::equal_to<>> m{{"hello", 3}};
  EXPECT_EQ(m.find(word)->second, 3);
}

TEST(Vocab, NumberedIsLazyAndParsesLabels) {
  const Vocab v = Vocab::numbered(50257);
  EXPECT_TRUE(v.is_numbered());
  EXPECT_EQ(v.size(), 50257u);
  EXPECT_EQ(v.find("0"), Id{0});
  EXPECT_EQ(v.find("123"), Id{123});
  EXPECT_EQ(v.find("50256"), Id{50256});
  for (const char* bad : {"50257", "0123", "-1", "+1", "1 ", "", "t123", "99999999999999999999999"})
    EXPECT_FALSE(v.find(bad).has_value()) << bad;
  EXPECT_THROW(v.require("50257"), lumen::UnknownTokenError);
  EXPECT_EQ(v.token(123), "123");
  EXPECT_EQ(v.tokens().size(), 50257u);
  EXPECT_EQ(v.tokens().back(), "50256");
  EXPECT_THROW(v.token(50257), std::out_of_range);
}

TEST(Vocab, LabelIsTheTokenBeforeAndAfterLabelsAreMade) {
  const Vocab v = Vocab::numbered(50257);
  EXPECT_EQ(v.label(0), "0");
  EXPECT_EQ(v.label(123), "123");
  EXPECT_EQ(v.label(50256), "50256");
  EXPECT_THROW(v.label(50257), std::out_of_range);
  EXPECT_THROW(v.label(-1), std::out_of_range);
  EXPECT_EQ(v.token(9), "9");  // every label made now
  for (const Id id : {0, 9, 10, 4999, 50256}) EXPECT_EQ(v.label(id), v.token(id)) << id;
  EXPECT_THROW(v.label(50257), std::out_of_range);
  Vocab words;
  words.add("king");
  words.add("queen");
  EXPECT_EQ(words.label(1), "queen");
  EXPECT_THROW(words.label(2), std::out_of_range);
}

TEST(Vocab, NumberedBecomesExplicitOnAdd) {
  Vocab v = Vocab::numbered(3);
  EXPECT_FALSE(v.add("1").has_value());
  EXPECT_EQ(v.add("cat"), Id{3});
  EXPECT_FALSE(v.is_numbered());
  EXPECT_EQ(v.find("2"), Id{2});
  EXPECT_EQ(v.find("cat"), Id{3});
  EXPECT_EQ(v.token(0), "0");
}

TEST(Vocab, NumberedAliasesAndTruncate) {
  Vocab v = Vocab::numbered(10);
  EXPECT_TRUE(v.add_alias("nine", 9));
  EXPECT_FALSE(v.add_alias("3", 4));  // a label's spelling is taken
  EXPECT_FALSE(v.add_alias("x", 10));
  EXPECT_EQ(v.find("nine"), Id{9});
  v.truncate(5);
  EXPECT_EQ(v.size(), 5u);
  EXPECT_FALSE(v.find("nine").has_value());
  EXPECT_FALSE(v.find("5").has_value());
  EXPECT_EQ(v.find("4"), Id{4});
}

TEST(Vocab, AliasesAndTruncateExplicit) {
  Vocab v;
  for (const char* w : {"a", "b", "c", "d"}) v.add(w);
  EXPECT_TRUE(v.add_alias("Ġc", 2));
  EXPECT_FALSE(v.add_alias("Ġc", 1));
  EXPECT_FALSE(v.add_alias("a", 3));
  EXPECT_FALSE(v.add("Ġc").has_value());  // an alias's spelling is taken too
  EXPECT_EQ(v.find("Ġc"), Id{2});
  EXPECT_EQ(v.size(), 4u);
  v.truncate(2);
  EXPECT_FALSE(v.find("c").has_value());
  EXPECT_FALSE(v.find("Ġc").has_value());
  EXPECT_EQ(v.find("b"), Id{1});
  EXPECT_EQ(v.add("c"), Id{2});
}

TEST(Vocab, FromUniqueIndexesOnFirstLookup) {
  std::vector<std::string> words;
  for (int i = 0; i < 1000; ++i) words.push_back("w" + std::to_string(i));
  words.push_back("w5");  // a caller's broken promise: the first stays the answer
  const Vocab v = Vocab::from_unique(words, std::vector<std::uint64_t>(words.size(), 2));
  EXPECT_EQ(v.size(), 1001u);
  EXPECT_TRUE(v.has_counts());
  EXPECT_EQ(v.find("w5"), Id{5});
  EXPECT_EQ(v.find("w999"), Id{999});
  EXPECT_EQ(v.token(1000), "w5");
  EXPECT_THROW(Vocab::from_unique({"a"}, {1, 2}), lumen::Error);
}

TEST(Vocab, LazyStepsRaceSafelyFromThreads) {
  std::vector<std::string> words;
  for (int i = 0; i < 5000; ++i) words.push_back("t" + std::to_string(i));
  const Vocab a = Vocab::from_unique(words);
  const Vocab b = Vocab::numbered(5000);
  std::vector<std::thread> threads;
  std::vector<int> bad(4, 0);
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&, k] {
      for (int i = k; i < 5000; i += 4) {
        if (a.find("t" + std::to_string(i)) != Id{i}) ++bad[k];
        if (b.token(i) != std::to_string(i)) ++bad[k];
      }
    });
  for (auto& t : threads) t.join();
  for (int k = 0; k < 4; ++k) EXPECT_EQ(bad[k], 0);
}

TEST(Vocab, CopiesAndMovesKeepLookups) {
  Vocab v;
  v.add("x");
  v.add("y");
  v.add_alias("why", 1);
  Vocab c = v;
  EXPECT_EQ(c.find("why"), Id{1});
  EXPECT_EQ(c.add("z"), Id{2});
  EXPECT_FALSE(v.find("z").has_value());
  Vocab m = std::move(c);
  EXPECT_EQ(m.find("z"), Id{2});
  Vocab n = Vocab::numbered(4);
  n = m;
  EXPECT_FALSE(n.is_numbered());
  EXPECT_EQ(n.find("y"), Id{1});
  const Vocab lazy = Vocab::from_unique({"p", "q"});
  const Vocab copied = lazy;  // copied before the index exists
  EXPECT_EQ(copied.find("q"), Id{1});
  EXPECT_EQ(lazy.find("p"), Id{0});
}

TEST(Vocab, MovesAllocateNothingAndLeaveAnEmptyUsableVocab) {
  Vocab a;
  a.add("x", 3);
  a.add("y", 1);
  a.add_alias("ex", 0);
  Vocab c;
  counting = true;
  Vocab b = std::move(a);
  c = std::move(b);
  counting = false;
  EXPECT_EQ(allocations.load(), 0);
  EXPECT_EQ(c.find("ex"), Id{0});
  EXPECT_EQ(c.count(1), 1u);
  for (Vocab* moved : {&a, &b}) {
    EXPECT_EQ(moved->size(), 0u);
    EXPECT_TRUE(moved->tokens().empty());
    EXPECT_FALSE(moved->has_counts());
    EXPECT_FALSE(moved->find("x").has_value());
    EXPECT_FALSE(moved->find("ex").has_value());
    EXPECT_TRUE(moved->suggest("x").empty());
    const Vocab copy = *moved;  // copying a moved-from Vocab
    EXPECT_TRUE(copy.empty());
  }
  a.reserve(4);
  EXPECT_EQ(a.add("z"), Id{0});
  EXPECT_EQ(a.find("z"), Id{0});
  EXPECT_FALSE(a.add("z").has_value());
  b.truncate(0);
  EXPECT_FALSE(b.add_alias("nothing", 0));
  b = c;  // assigning into a moved-from Vocab
  EXPECT_EQ(b.find("y"), Id{1});

  Vocab n = Vocab::numbered(3);
  Vocab m = std::move(n);
  EXPECT_TRUE(m.is_numbered());
  EXPECT_EQ(m.find("2"), Id{2});
  EXPECT_FALSE(n.is_numbered());
  EXPECT_FALSE(n.find("0").has_value());
  EXPECT_EQ(n.add("a"), Id{0});
  m = std::move(n);  // onto a Vocab that had lazy state of its own
  EXPECT_EQ(m.token(0), "a");
  EXPECT_FALSE(m.find("2").has_value());
}

}  // namespace test_vocab
