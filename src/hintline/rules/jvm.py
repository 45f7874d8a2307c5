"""Rules: JVM runtime errors (Java 17 wording, including helpful NullPointerException messages).

Jackson payload errors are in the payload family; file and network exceptions in fs, http and
system. See rules/__init__.py for global precedence.
"""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule

_FX = "tests/rules/fixtures/jvm/"

RULES: tuple[Rule, ...] = (
    Rule(
        code="JV001",
        name="jvm.helpful-npe-variable",
        category=Category.NULL_POINTER,
        pattern=(
            r"NullPointerException: Cannot (?P<action>[a-z][a-z ]+?)(?: \"(?P<member>[^\"\n]+)\")? "
            r"because \"(?P<key>[^\"\n]+)\" is null"
        ),
        hint="'{key}' is null (cannot {action} {member}); make sure '{key}' is loaded or passed before this step.",
        why="JEP 358 helpful NullPointerException messages (Java 14+) name the null variable or field.",
        examples=(
            Example(
                "Exception in thread \"main\" java.lang.NullPointerException: Cannot invoke \"String.length()\" "
                "because \"customerId\" is null\n\tat Errors.main(Errors.java:60)",
                "Hint: 'customerId' is null (cannot invoke String.length()); make sure 'customerId' is loaded or passed before this step.",
                "customerId",
                _FX + "java_npe_local.txt",
            ),
            Example(
                "java.lang.NullPointerException: Cannot read field \"quantity\" because \"order\" is null",
                "Hint: 'order' is null (cannot read field quantity); make sure 'order' is loaded or passed before this step.",
                "order",
                _FX + "java_npe_field.txt",
            ),
        ),
    ),
    Rule(
        code="JV002",
        name="jvm.helpful-npe-return-value",
        category=Category.NULL_POINTER,
        pattern=(
            r"NullPointerException: Cannot (?P<action>[a-z][a-z ]+?)(?: \"(?P<member>[^\"\n]+)\")? "
            r"because the return value of \"(?P<key>[^\"\n]+)\" is null"
        ),
        hint="{key} returned null (cannot {action} {member}): the record or key looked up does not exist; check it exists before using the result.",
        why="JEP 358 helpful NPE naming the method whose null result was used (often Map.get or a repository find).",
        examples=(
            Example(
                "java.lang.NullPointerException: Cannot invoke \"String.trim()\" because the return value of "
                "\"java.util.Map.get(Object)\" is null",
                "Hint: java.util.Map.get(Object) returned null (cannot invoke String.trim()): the record or key looked up does not exist; check it exists before using the result.",
                "java.util.Map.get(Object)",
                _FX + "java_npe_map_get.txt",
            ),
        ),
    ),
    Rule(
        code="JV003",
        name="jvm.null-pointer",
        category=Category.NULL_POINTER,
        pattern=r"java\.lang\.NullPointerException\b",
        hint="Java NullPointerException: a value was null where an object was required; check that every input and lookup result is present.",
        why="A NullPointerException without a helpful message (older JVMs, or -XX:-ShowCodeDetailsInExceptionMessages).",
        key_group=None,
        examples=(
            Example(
                "Exception in thread \"main\" java.lang.NullPointerException\n\tat Errors.main(Errors.java:60)",
                "Hint: Java NullPointerException: a value was null where an object was required; check that every input and lookup result is present.",
                None,
                _FX + "java_npe_plain.txt",
            ),
        ),
    ),
    Rule(
        code="JV004",
        name="jvm.number-format",
        category=Category.INVALID_INTEGER,
        pattern=r"java\.lang\.NumberFormatException: (?:For input string|Cannot parse null string|null|Error at index)",
        hint="A value is not a valid number (Java NumberFormatException); send digits only (no words, units, spaces or decimals for integers).",
        why="Integer.parseInt / Long.parseLong / new BigDecimal reject non-numeric text; the value is not echoed.",
        key_group=None,
        examples=(
            Example(
                "Exception in thread \"main\" java.lang.NumberFormatException: For input string: \"12a\"\n"
                "\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)",
                "Hint: A value is not a valid number (Java NumberFormatException); send digits only (no words, units, spaces or decimals for integers).",
                None,
                _FX + "java_number_format.txt",
            ),
        ),
    ),
    Rule(
        code="JV005",
        name="jvm.class-cast",
        category=Category.TYPE_MISMATCH,
        pattern=r"ClassCastException: class (?P<got>[\w.$]+) cannot be cast to class (?P<key>[\w.$]+)",
        hint="A {got} was used where a {key} is required; pass a value of type {key} (convert it first if needed).",
        why="The JVM's ClassCastException (Java 11+ wording: 'class X cannot be cast to class Y').",
        examples=(
            Example(
                "java.lang.ClassCastException: class java.lang.String cannot be cast to class java.lang.Integer "
                "(java.lang.String and java.lang.Integer are in module java.base of loader 'bootstrap')",
                "Hint: A java.lang.String was used where a java.lang.Integer is required; pass a value of type java.lang.Integer (convert it first if needed).",
                "java.lang.Integer",
                _FX + "java_class_cast.txt",
            ),
        ),
    ),
    Rule(
        code="JV006",
        name="jvm.index-out-of-bounds",
        category=Category.INDEX_ERROR,
        pattern=(
            r"(?:Array|String)?IndexOutOfBoundsException: (?:Index|index) (?P<index>-?\d+) "
            r"out of bounds for length (?P<length>\d+)"
        ),
        hint="Index {index} is out of bounds for length {length}; use an index below {length} (the collection may be shorter or empty).",
        why="Java 11+ array, list and string bounds checks (Objects.checkIndex wording).",
        key_group=None,
        examples=(
            Example(
                "java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 3",
                "Hint: Index 5 is out of bounds for length 3; use an index below 3 (the collection may be shorter or empty).",
                None,
                _FX + "java_array_index.txt",
            ),
            Example(
                "java.lang.IndexOutOfBoundsException: Index 5 out of bounds for length 3\n"
                "\tat java.base/jdk.internal.util.Preconditions.outOfBounds(Preconditions.java:64)",
                "Hint: Index 5 is out of bounds for length 3; use an index below 3 (the collection may be shorter or empty).",
                None,
                _FX + "java_list_index.txt",
            ),
        ),
    ),
    Rule(
        code="JV007",
        name="jvm.divide-by-zero",
        category=Category.DIVISION_BY_ZERO,
        pattern=r"java\.lang\.ArithmeticException: (?:/ by zero|BigInteger divide by zero|Division by zero|Division undefined)",
        hint="Java integer division by zero: a divisor was 0; check the count or total is non-zero before dividing.",
        why="The JVM's ArithmeticException for integer / and % by zero (and BigInteger/BigDecimal).",
        key_group=None,
        examples=(
            Example(
                "Exception in thread \"main\" java.lang.ArithmeticException: / by zero\n\tat Errors.main(Errors.java:95)",
                "Hint: Java integer division by zero: a divisor was 0; check the count or total is non-zero before dividing.",
                None,
                _FX + "java_divide_by_zero.txt",
            ),
        ),
    ),
    Rule(
        code="JV008",
        name="jvm.stack-overflow",
        category=Category.RECURSION,
        pattern=r"java\.lang\.StackOverflowError",
        hint="Java StackOverflowError: a method calls itself without end; add a base case or use a loop, and check for cyclic data.",
        why="The JVM thread stack (-Xss) is exhausted, nearly always by unbounded recursion.",
        key_group=None,
        examples=(
            Example(
                "Exception in thread \"main\" java.lang.StackOverflowError\n\tat Errors.depth(Errors.java:46)",
                "Hint: Java StackOverflowError: a method calls itself without end; add a base case or use a loop, and check for cyclic data.",
                None,
                _FX + "java_stack_overflow.txt",
            ),
        ),
    ),
    Rule(
        code="JV009",
        name="jvm.class-not-found",
        category=Category.IMPORT_ERROR,
        pattern=r"(?:ClassNotFoundException|NoClassDefFoundError): (?P<key>[\w.$/]+)",
        hint="Java class '{key}' is not on the classpath; add the jar that provides it or fix the class name.",
        why="Class.forName / the class loader cannot find a class (a missing dependency or a misspelt name).",
        examples=(
            Example(
                "Exception in thread \"main\" java.lang.ClassNotFoundException: com.example.billing.InvoiceService",
                "Hint: Java class 'com.example.billing.InvoiceService' is not on the classpath; add the jar that provides it or fix the class name.",
                "com.example.billing.InvoiceService",
                _FX + "java_class_not_found.txt",
            ),
        ),
    ),
    Rule(
        code="JV010",
        name="jvm.out-of-memory",
        category=Category.OUT_OF_MEMORY,
        pattern=(
            r"java\.lang\.OutOfMemoryError: (?P<what>Java heap space|GC overhead limit exceeded|Metaspace|"
            r"unable to create native thread|Requested array size exceeds VM limit|Direct buffer memory)"
        ),
        hint="The JVM ran out of memory ({what}); process the data in smaller pieces (stream or paginate) or raise the limit (-Xmx).",
        why="java.lang.OutOfMemoryError: the heap (or metaspace, threads, direct memory) limit is reached.",
        key_group=None,
        examples=(
            Example(
                "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n\tat Errors.main(Errors.java:104)",
                "Hint: The JVM ran out of memory (Java heap space); process the data in smaller pieces (stream or paginate) or raise the limit (-Xmx).",
                None,
                "tests/rules/fixtures/system/java_oom.txt",
            ),
        ),
    ),
)
